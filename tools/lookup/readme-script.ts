/** The README's command blocks as tests run them: what a user types, each answer checked. */

/** The README's first part (up to "## What works today"): its bash blocks, in order. */
export function readmeBlocks(readme: string): string[][] {
  const first = readme.slice(0, readme.indexOf('\n## What works today'));
  return bashBlocks(first);
}

/** The bash blocks of one `## ` section of the README (from its heading to the next `## `), in order. */
export function readmeSectionBlocks(readme: string, heading: string): string[][] {
  const at = readme.indexOf(`\n## ${heading}\n`);
  if (at < 0) throw new Error(`the README has no section "## ${heading}"`);
  const rest = readme.slice(at + 1);
  const end = rest.indexOf('\n## ', 1);
  return bashBlocks(end < 0 ? rest : rest.slice(0, end));
}

function bashBlocks(text: string): string[][] {
  return [...text.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1].split('\n').filter((l) => l.trim() !== ''));
}

/**
 * One bash script from the README's command lines: each command runs on its own, its answer is
 * kept, and the `# -> text` line below a command must appear in that answer. `VAR=$(...)` lines
 * stay assignments (and must give a value). Every command's wall time goes to `timings`.
 * `retrySeconds`: a command whose answer does not show its `# -> text` yet runs again, once a
 * second, for up to that long: for answers that come from an asynchronous step (the indexer
 * importing what a command published). 0 (the default): one run, as a user sees it.
 */
export function readmeScript(lines: string[], port: number, timings: string, retrySeconds = 0): string {
  const out = ['set -u', `: > ${timings}`];
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/127\.0\.0\.1:3000/g, `127.0.0.1:${port}`);
    const expect = /^# -> (.*)$/.exec(line);
    if (expect) {
      out.push(`grep -qF -- ${JSON.stringify(expect[1])} <<<"$out" || { echo "README: expected ${expect[1].replace(/["$`\\]/g, '.')} in: $out"; exit 1; }`);
      continue;
    }
    if (line.startsWith('#')) continue;
    const assign = /^([A-Z_]+)=\$\((.*)\)(\s+#.*)?$/.exec(line);
    const cmd = assign ? assign[2] : line;
    const next = /^# -> (.*)$/.exec(lines[i + 1] ?? '');
    const run = `out=$(\n${cmd}\n) || { echo "README: failed: ${cmd.replace(/["$`\\]/g, '.')}: $out"; exit 1; }`;
    out.push('s=$(date +%s%N)');
    if (next && retrySeconds > 0) {
      out.push(`for try in $(seq 1 ${retrySeconds}); do\n${run}\ngrep -qF -- ${JSON.stringify(next[1])} <<<"$out" && break\nsleep 1\ndone`);
    } else {
      out.push(run);
    }
    out.push(`echo "$(( ($(date +%s%N) - s) / 1000000 )) ms  ${cmd.replace(/["$`\\]/g, '.').slice(0, 60)}" >> ${timings}`);
    if (assign) out.push(`${assign[1]}="$out"; [ -n "$${assign[1]}" ] || { echo "README: ${assign[1]} is empty"; exit 1; }`);
    out.push('printf "%s\\n" "$out"');
  }
  return out.join('\n') + '\n';
}
