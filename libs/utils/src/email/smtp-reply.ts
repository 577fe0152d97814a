/** One SMTP reply: its code, the enhanced status code if any (RFC 3463), and its text lines. */
export interface SmtpReply {
  code: number;
  enhanced: string | null;
  lines: string[];
}

export const replyText = (r: SmtpReply) => r.lines.join(' ');

/**
 * Splits received text into complete replies. A reply is `NNN-text` lines closed by an
 * `NNN text` (or bare `NNN`) line; what is left is an incomplete tail kept for the next read.
 */
export function parseReplies(buffer: string): { replies: SmtpReply[]; rest: string } {
  const replies: SmtpReply[] = [];
  let lines: string[] = [];
  let start = 0;
  let consumed = 0;
  for (;;) {
    const end = buffer.indexOf('\n', start);
    if (end < 0) break;
    const line = buffer.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    const m = /^(\d{3})([ -]?)(.*)$/.exec(line);
    if (!m) throw new SmtpProtocolError(`not an SMTP reply line: ${JSON.stringify(line.slice(0, 80))}`);
    lines.push(m[3]);
    if (m[2] !== '-') {
      const enhanced = /^([245]\.\d{1,3}\.\d{1,3})\b/.exec(lines[0] ?? '');
      replies.push({ code: Number(m[1]), enhanced: enhanced ? enhanced[1] : null, lines });
      lines = [];
      consumed = start;
    }
  }
  // An unfinished multi-line reply stays in the tail, whole, for the next read.
  return { replies, rest: buffer.slice(consumed) };
}

export class SmtpProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmtpProtocolError';
  }
}

/** EHLO keywords (upper case) with their parameters. */
export function extensionsOf(ehlo: SmtpReply): Map<string, string> {
  const ext = new Map<string, string>();
  for (const line of ehlo.lines.slice(1)) {
    const [kw, ...params] = line.trim().split(/\s+/);
    if (kw) ext.set(kw.toUpperCase(), params.join(' '));
  }
  return ext;
}

/** What a RCPT TO answer says about the mailbox. */
export type RcptVerdict =
  | 'accepted'
  | 'full' // over quota: the mailbox exists
  | 'disabled' // exists but switched off
  | 'rejected' // no such mailbox (or otherwise refused for good)
  | 'temporary' // greylisting and other 4xx: ask again later
  | 'blocked'; // the server refuses us (policy, reputation), not the mailbox

const FULL = /\b(full|over\s*quota|quota\s+exceeded|exceed(s|ed)?\s+(its\s+)?(storage|quota)|insufficient\s+(system\s+)?storage|out\s+of\s+storage|too\s+many\s+messages|storage\s+allocation)\b/i;
const DISABLED = /\b(disabled|deactivated|inactive|not\s+active|suspended|locked|no\s+longer\s+(active|available|in\s+use))\b/i;
const BLOCKED = /\b(block(ed|list)?|blacklist(ed)?|spamhaus|barracuda|banned|reputation|listed\s+(in|at|on)\s|client\s+host\s+rejected|access\s+denied\s+.*\bip\b|\bpolicy\b.*\b(ip|sender)\b|\bPTR\b|reverse\s+dns)/i;

/**
 * Classifies the answer to RCPT TO. The code decides the class; the enhanced code and the
 * text tell the 5xx cases apart because servers use 550 for all of them.
 */
export function classifyRcpt(reply: SmtpReply): RcptVerdict {
  const text = replyText(reply);
  const enh = reply.enhanced ?? '';
  if (reply.code >= 200 && reply.code < 300) return 'accepted';
  // 552 at RCPT is "exceeded storage allocation"; 452 only with quota wording or x.2.2,
  // because 452 4.5.3 is also "too many recipients".
  if (reply.code === 552 || enh.endsWith('.2.2') || FULL.test(text)) return 'full';
  if (reply.code < 500) return 'temporary';
  if (enh === '5.2.1' || DISABLED.test(text)) return 'disabled';
  if (enh.startsWith('5.7.') || BLOCKED.test(text)) return 'blocked';
  return 'rejected';
}
