import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { DEFAULT_TRANSPORT_TIMEOUT_MS, ReplyEnvelope, RequestOptions, TransportClient } from './transport.types';
import { noResponder, transportTimeout } from './transport.errors';
import { runHandler, unwrapReply } from './reply';

type Handler = Parameters<typeof runHandler>[0];

/** The standalone profile's broker: the same subjects, no network. */
export class InProcessBus {
  private readonly handlers = new Map<string, Handler>();

  register(subject: string, handler: Handler): void {
    if (this.handlers.has(subject)) throw new Error(`Two handlers for ${subject}`);
    this.handlers.set(subject, handler);
  }

  unregister(subject: string): void {
    this.handlers.delete(subject);
  }

  handler(subject: string): Handler | undefined {
    return this.handlers.get(subject);
  }
}

/** Registers the app's @MessagePattern handlers on the bus. */
export class InProcessTransportServer extends Server implements CustomTransportStrategy {
  private readonly registered: string[] = [];

  constructor(private readonly bus: InProcessBus) {
    super();
  }

  listen(callback: () => void): void {
    for (const [pattern, handler] of this.messageHandlers) {
      this.bus.register(pattern, handler);
      this.registered.push(pattern);
    }
    callback();
  }

  close(): void {
    for (const s of this.registered.splice(0)) this.bus.unregister(s);
  }

  on(): never {
    throw new Error('InProcessTransportServer has no events');
  }

  unwrap<T>(): T {
    return this.bus as T;
  }
}

/**
 * Payloads and replies go through JSON like on the wire, so a handler that returns something
 * a network transport could not carry fails in standalone too.
 */
export class InProcessTransportClient implements TransportClient {
  constructor(
    private readonly bus: InProcessBus,
    private readonly defaultTimeoutMs = DEFAULT_TRANSPORT_TIMEOUT_MS,
  ) {}

  async request<T>(subject: string, payload: unknown, options?: RequestOptions): Promise<T> {
    const handler = this.bus.handler(subject);
    if (!handler) throw noResponder(subject);
    const timeout = options?.timeoutMs ?? this.defaultTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(transportTimeout(subject, timeout)), timeout);
    });
    try {
      const reply = await Promise.race([runHandler(handler, JSON.parse(JSON.stringify(payload ?? {}))), timedOut]);
      return unwrapReply<T>(JSON.parse(JSON.stringify(reply)) as ReplyEnvelope);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    /* nothing to release */
  }
}
