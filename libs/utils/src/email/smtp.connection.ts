import { connect as netConnect, Socket } from 'node:net';
import { connect as tlsConnect, TLSSocket } from 'node:tls';
import { isIP } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { ioFairTimeout } from './io-fair-timeout';
import { parseReplies, SmtpReply } from './smtp-reply';

/** Why a dialogue stopped before an answer: each maps to a verdict in the probe. */
export class SmtpFailure extends Error {
  constructor(
    readonly kind: 'refused' | 'connect-timeout' | 'timeout' | 'closed' | 'protocol' | 'tls',
    message: string,
  ) {
    super(message);
    this.name = 'SmtpFailure';
  }
}

// Errors that mean "nothing listens there", as opposed to "we could not tell in time".
const REFUSED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const MAX_BUFFER = 64 * 1024;

/**
 * One client connection speaking SMTP: line-oriented replies, each wait bounded, the socket
 * destroyed when the caller's signal aborts. No message is ever sent through it.
 */
export class SmtpConnection {
  private buffer = '';
  // A multi-byte character may be split across two TCP segments.
  private decoder = new StringDecoder('utf8');
  private readonly replies: SmtpReply[] = [];
  private waiter: { resolve: (r: SmtpReply) => void; reject: (e: Error) => void } | null = null;
  private failure: SmtpFailure | null = null;
  private socket: Socket;
  private readonly onData = (chunk: Buffer) => this.receive(chunk);
  private readonly onEnd = () => this.fail(new SmtpFailure('closed', 'the server closed the connection'));
  private readonly onError = (err: Error) => this.fail(new SmtpFailure('closed', err.message));

  private constructor(socket: Socket, private readonly signal?: AbortSignal) {
    this.socket = socket;
    this.attach(socket);
    signal?.addEventListener('abort', this.abort, { once: true });
  }

  get secure(): boolean {
    return this.socket instanceof TLSSocket;
  }

  static open(address: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<SmtpConnection> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new SmtpFailure('timeout', 'check budget spent'));
      const socket = netConnect({ host: address, port, family: isIP(address) || undefined });
      const cancelTimer = ioFairTimeout(() => done(new SmtpFailure('connect-timeout', `connect to ${address}:${port} timed out`)), timeoutMs);
      const onAbort = () => done(new SmtpFailure('timeout', 'check budget spent'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = (err: Error | null) => {
        cancelTimer();
        signal?.removeEventListener('abort', onAbort);
        socket.removeAllListeners('connect').removeAllListeners('error');
        if (err) {
          socket.destroy();
          reject(err);
        } else resolve(new SmtpConnection(socket, signal));
      };
      socket.once('connect', () => done(null));
      socket.once('error', (err: NodeJS.ErrnoException) =>
        done(new SmtpFailure(REFUSED.has(err.code ?? '') ? 'refused' : 'closed', `connect to ${address}:${port}: ${err.code ?? err.message}`)),
      );
    });
  }

  /** The next reply from the server. */
  read(timeoutMs: number, step: string): Promise<SmtpReply> {
    const ready = this.replies.shift();
    if (ready) return Promise.resolve(ready);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const cancelTimer = ioFairTimeout(() => {
        this.waiter = null;
        this.failure ??= new SmtpFailure('timeout', `no answer to ${step} within ${timeoutMs} ms`);
        reject(this.failure);
        this.close();
      }, timeoutMs);
      this.waiter = {
        resolve: (r) => (cancelTimer(), resolve(r)),
        reject: (e) => (cancelTimer(), reject(e)),
      };
    });
  }

  command(line: string, timeoutMs: number): Promise<SmtpReply> {
    if (/[\r\n]/.test(line)) return Promise.reject(new SmtpFailure('protocol', 'line break inside a command'));
    if (this.failure) return Promise.reject(this.failure);
    this.socket.write(`${line}\r\n`, 'utf8');
    return this.read(timeoutMs, line.split(/[\s:]/, 1)[0]);
  }

  /** Upgrades after a 220 to STARTTLS. Certificates are not verified: opportunistic TLS, as MTAs do. */
  startTls(servername: string, timeoutMs: number): Promise<void> {
    const plain = this.socket;
    this.detach(plain);
    return new Promise((resolve, reject) => {
      const tls = tlsConnect({ socket: plain, servername: isIP(servername) ? undefined : servername, rejectUnauthorized: false });
      const cancelTimer = ioFairTimeout(() => fail(new SmtpFailure('tls', `TLS handshake timed out after ${timeoutMs} ms`)), timeoutMs);
      const fail = (err: Error) => {
        cancelTimer();
        tls.destroy();
        this.failure = err instanceof SmtpFailure ? err : new SmtpFailure('tls', `TLS handshake failed: ${err.message}`);
        reject(this.failure);
      };
      tls.once('error', fail);
      tls.once('secureConnect', () => {
        cancelTimer();
        tls.removeListener('error', fail);
        this.socket = tls;
        this.decoder = new StringDecoder('utf8');
        this.attach(tls);
        resolve();
      });
    });
  }

  /** Says QUIT without waiting long for the answer, then drops the connection. */
  async quit(timeoutMs: number): Promise<void> {
    try {
      await this.command('QUIT', Math.min(timeoutMs, 1000));
    } catch {
      /* the verdict is already known */
    }
    this.close();
  }

  close(): void {
    this.signal?.removeEventListener('abort', this.abort);
    this.socket.destroy();
  }

  private readonly abort = () => {
    this.fail(new SmtpFailure('timeout', 'check budget spent'));
    this.socket.destroy();
  };

  private attach(s: Socket): void {
    s.on('data', this.onData).on('end', this.onEnd).on('error', this.onError).on('close', this.onEnd);
  }

  private detach(s: Socket): void {
    s.off('data', this.onData).off('end', this.onEnd).off('error', this.onError).off('close', this.onEnd);
  }

  private receive(chunk: Buffer): void {
    this.buffer += this.decoder.write(chunk);
    try {
      const { replies, rest } = parseReplies(this.buffer);
      this.buffer = rest;
      if (rest.length > MAX_BUFFER) throw new Error('reply too long');
      this.replies.push(...replies);
    } catch (err) {
      this.fail(new SmtpFailure('protocol', (err as Error).message));
      this.socket.destroy();
      return;
    }
    if (this.waiter && this.replies.length > 0) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve(this.replies.shift() as SmtpReply);
    }
  }

  private fail(err: SmtpFailure): void {
    if (!this.failure) this.failure = err;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.reject(this.failure);
    }
  }
}
