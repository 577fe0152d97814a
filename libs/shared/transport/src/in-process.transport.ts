import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { isParsedRequest } from '@lookup/contracts';
import { DEFAULT_TRANSPORT_TIMEOUT_MS, RawJson, ReplyEnvelope, RequestOptions, TransportClient } from './transport.types';
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
 * A payload goes through JSON like on the wire, except a DTO the gateway validated in this
 * process (`isParsedRequest`): that one is handed over as it is and not validated again. Replies
 * are handed back as they are: the HTTP layer writes them as JSON, as the NATS transport does.
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
      const data = isParsedRequest(payload) ? payload : JSON.parse(JSON.stringify(payload ?? {}));
      const reply = await Promise.race([runHandler(handler, data), timedOut]);
      const answer = unwrapReply<T>(reply as ReplyEnvelope);
      // A handler's JSON text (a search thread's answer) goes on as it is only to a caller that sends it on.
      return answer instanceof RawJson && !options?.passThrough ? (answer.value() as T) : answer;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    /* nothing to release */
  }
}
