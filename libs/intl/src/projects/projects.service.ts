import { DataSource } from 'typeorm';
import { DomainError, ErrorTypes, MemberRole, MemberRoles } from '@lookup/contracts';
import { MemberEntity, nowText, ProjectEntity } from '../store/intl.entities';
import { inTransaction } from '../store/intl.store';

export interface ProjectListing {
  name: string;
  created_at: string;
  members: Array<{ email: string; role: MemberRole }>;
}

/** Projects and their members. Used by the handlers (resolve, membership) and by the CLI (the rest). */
export class ProjectsService {
  constructor(private readonly ds: DataSource) {}

  /** The project of an API key; a key bound to a project that was never created is a clear error. */
  async resolve(name: string): Promise<ProjectEntity> {
    const p = await this.ds.getRepository(ProjectEntity).findOne({ where: { name } });
    if (!p) {
      throw new DomainError(ErrorTypes.invalidRequest, `The project "${name}" of this API key does not exist; create it with \`npm run projects -- create ${name}\`.`, 'api_key');
    }
    return p;
  }

  /** The member behind `contributor`, or invalid_parameter naming it. */
  async member(projectId: number, email: string, param = 'contributor'): Promise<MemberEntity> {
    const m = await this.ds.getRepository(MemberEntity).findOne({ where: { projectId, email: email.trim().toLowerCase() } });
    if (!m) throw DomainError.invalidParameter(param, `${email} is not a member of this project.`);
    return m;
  }

  async administrator(projectId: number, email: string): Promise<MemberEntity> {
    const m = await this.member(projectId, email);
    if (m.role !== 'administrator') throw DomainError.invalidParameter('contributor', `${email} is a translator; only administrators approve and reject.`);
    return m;
  }

  async create(name: string): Promise<ProjectEntity> {
    if (!/^[\w.-]{1,100}$/.test(name)) throw new Error('A project name is 1 to 100 letters, digits, dots, dashes or underscores.');
    return inTransaction(this.ds, async (em) => {
      const repo = em.getRepository(ProjectEntity);
      if (await repo.findOne({ where: { name } })) throw new Error(`Project ${name} already exists.`);
      return repo.save(repo.create({ name, createdAt: nowText() }));
    });
  }

  async addMember(project: string, email: string, role: string): Promise<MemberEntity> {
    if (!(MemberRoles as readonly string[]).includes(role)) throw new Error(`A role is one of ${MemberRoles.join(', ')}.`);
    if (!/^[^@\s]+@[^@\s]+$/.test(email) || email.length > 254) throw new Error(`${email} is not an e-mail address.`);
    const p = await this.resolve(project);
    return inTransaction(this.ds, async (em) => {
      const repo = em.getRepository(MemberEntity);
      const normalized = email.trim().toLowerCase();
      const existing = await repo.findOne({ where: { projectId: p.id, email: normalized } });
      if (existing) {
        existing.role = role as MemberRole;
        return repo.save(existing);
      }
      return repo.save(repo.create({ projectId: p.id, email: normalized, role: role as MemberRole, createdAt: nowText() }));
    });
  }

  async removeMember(project: string, email: string): Promise<boolean> {
    const p = await this.resolve(project);
    return inTransaction(this.ds, async (em) => {
      const res = await em.getRepository(MemberEntity).delete({ projectId: p.id, email: email.trim().toLowerCase() });
      return (res.affected ?? 0) > 0;
    });
  }

  async list(): Promise<ProjectListing[]> {
    const projects = await this.ds.getRepository(ProjectEntity).find({ order: { name: 'ASC' } });
    const members = await this.ds.getRepository(MemberEntity).find({ order: { email: 'ASC' } });
    return projects.map((p) => ({
      name: p.name,
      created_at: p.createdAt,
      members: members.filter((m) => m.projectId === p.id).map((m) => ({ email: m.email, role: m.role })),
    }));
  }
}
