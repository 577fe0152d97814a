import { ProjectsService } from './projects.service';

export class ProjectsUsageError extends Error {}

export const PROJECTS_USAGE = `Usage: npm run projects -- <command>
  create <project>                                   create a project
  add-member <project> <email> <translator|administrator>   add a member, or change their role
  remove-member <project> <email>                    remove a member
  list                                               projects and their members
Bind an API key to a project with: npm run keys -- create --name <name> --project <project>`;

/** The projects CLI's commands, apart from process handling so they can be tested. */
export async function runProjectsCommand(argv: string[], projects: ProjectsService, out: (line: string) => void): Promise<void> {
  const [command, ...args] = argv;
  const need = (n: number) => {
    if (args.length !== n) throw new ProjectsUsageError(PROJECTS_USAGE);
  };
  switch (command) {
    case 'create': {
      need(1);
      const p = await projects.create(args[0]);
      out(`Project ${p.name} created.`);
      return;
    }
    case 'add-member': {
      need(3);
      const m = await projects.addMember(args[0], args[1], args[2]);
      out(`${m.email}: ${m.role} of ${args[0]}.`);
      return;
    }
    case 'remove-member': {
      need(2);
      out((await projects.removeMember(args[0], args[1])) ? `${args[1]} removed from ${args[0]}.` : `${args[1]} was not a member of ${args[0]}.`);
      return;
    }
    case 'list': {
      need(0);
      for (const p of await projects.list()) {
        out(`${p.name} (created ${p.created_at})`);
        for (const m of p.members) out(`  ${m.role.padEnd(13)} ${m.email}`);
      }
      return;
    }
    default:
      throw new ProjectsUsageError(PROJECTS_USAGE);
  }
}
