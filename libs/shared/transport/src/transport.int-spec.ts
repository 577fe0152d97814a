import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Module, NotFoundException, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload, CustomTransportStrategy } from '@nestjs/microservices';
import { IsInt, Max } from 'class-validator';
import { Type } from 'class-transformer';
import { DomainError, parseRequest, Required } from '@lookup/contracts';
import { describeWith, freePortRange, NATS_SERVER_BIN, natsCluster, NatsServerProcess, serverUrl, tempDir, uniqueName } from '@lookup/shared/testing';
import { existsSync } from 'node:fs';
import { RpcHandlers } from './rpc-handlers.decorator';
import { InProcessBus, InProcessTransportClient, InProcessTransportServer } from './in-process.transport';
import { NatsTransportServer } from './nats.server';
import { NatsTransportClient } from './nats.client';
import { RawJson, TransportClient } from './transport.types';

class EchoRequest {
  @Type(() => Number) @Required() @IsInt() @Max(100) n!: number;
}

/** Another DTO with the same field, checked more strictly. */
class SmallEchoRequest {
  @Type(() => Number) @Required() @IsInt() @Max(10) n!: number;
}

const KEPT = Object.freeze(Array.from({ length: 20000 }, (_, i) => Object.freeze({ place_id: `cz_m${600000 + i}`, municipality: `Obec ${i}`, pad: 'y'.repeat(100) })));

@RpcHandlers()
class TestHandlers {
  static calls = 0;
  @MessagePattern('test.echo') echo(@Payload() dto: EchoRequest) {
    TestHandlers.calls++;
    return { doubled: dto.n * 2 };
  }
  static seen: unknown[] = [];
  @MessagePattern('test.same') same(@Payload() dto: EchoRequest) {
    TestHandlers.seen.push(dto);
    return { n: dto.n };
  }
  @MessagePattern('test.small') small(@Payload() dto: SmallEchoRequest) {
    TestHandlers.seen.push(dto);
    return { n: dto.n, small: dto instanceof SmallEchoRequest };
  }
  @MessagePattern('test.domain') domain() {
    throw DomainError.notFound('place_id', 'Place x');
  }
  @MessagePattern('test.nest') nest() {
    throw new NotFoundException('nothing here');
  }
  @MessagePattern('test.crash') crash() {
    throw new TypeError('secret internals');
  }
  /** About 3 MB of JSON that compresses well (like a country's municipality list): over NATS's 1 MiB max_payload. */
  @MessagePattern('test.large') large() {
    return Array.from({ length: 20000 }, (_, i) => ({ place_id: `cz_m${500000 + i}`, municipality: `Obec ${i}`, county: 'Okres', region: 'Kraj', pad: 'x'.repeat(100) }));
  }
  /** A frozen answer (as a catalogue list kept under its data stamp): the same object every time. */
  @MessagePattern('test.kept') kept() {
    return KEPT;
  }
  /** Incompressible and over max_payload even gzipped. */
  @MessagePattern('test.huge') huge() {
    return randomBytes(3 * 1024 * 1024).toString('base64');
  }
  static writes = 0;
  /** A write (not idempotent): never sent twice by the client. */
  @MessagePattern('intl.translations.vote') async vote() {
    TestHandlers.writes++;
    await new Promise((r) => setTimeout(r, 800));
    return 'voted';
  }
  @MessagePattern('test.plain') plain() {
    return 'plain text';
  }
  /** An answer a handler already has as JSON text (a search thread's). */
  @MessagePattern('test.rawjson') rawJson() {
    return new RawJson(Buffer.from('[{"a":"ř"}]'));
  }
  @MessagePattern('test.nothing') nothing() {
    return null;
  }
  @MessagePattern('test.slow') async slow() {
    await new Promise((r) => setTimeout(r, 800));
    return 'late';
  }
}

@Module({ controllers: [TestHandlers] })
class TestModule {}

/** The same behaviour from both transports: answers, typed errors, timeouts, no responder. */
function transportContract(name: string, setup: () => Promise<{ client: TransportClient; stop(): Promise<void> }>) {
  describe(name, () => {
    let client: TransportClient;
    let stop: () => Promise<void>;
    beforeAll(async () => ({ client, stop } = await setup()));
    afterAll(async () => stop?.());

    it('answers a request', async () => {
      await expect(client.request('test.echo', { n: '21' })).resolves.toEqual({ doubled: 42 });
    });
    it('validates the payload at the handler and names the parameter', async () => {
      await expect(client.request('test.echo', { n: 'x' })).rejects.toMatchObject({ type: 'invalid_parameter', param: 'n', status: 400 });
      await expect(client.request('test.echo', {})).rejects.toMatchObject({ type: 'missing_parameter', param: 'n' });
      await expect(client.request('test.echo', { n: 1, extra: 1 })).rejects.toMatchObject({ type: 'unexpected_parameter', param: 'extra' });
    });
    it('carries a DomainError with its type and status', async () => {
      await expect(client.request('test.domain', {})).rejects.toMatchObject({ type: 'invalid_request', status: 404, param: 'place_id' });
    });
    it('keeps a plain Nest exception from becoming an opaque 500', async () => {
      await expect(client.request('test.nest', {})).rejects.toMatchObject({ type: 'invalid_request', status: 404 });
    });
    it('hides internals of an unexpected crash behind a 500', async () => {
      const err = (await client.request('test.crash', {}).catch((e: unknown) => e)) as DomainError;
      expect(err).toBeInstanceOf(DomainError);
      expect([err.type, err.status]).toEqual(['api_error', 500]);
      expect(err.message).not.toContain('secret');
    });
    it('carries an answer larger than the broker max_payload (1 MiB) intact', async () => {
      const list = await client.request<Array<{ place_id: string }>>('test.large', {});
      expect(list).toHaveLength(20000);
      expect(list[19999].place_id).toBe('cz_m519999');
    });
    it('passes an object or list answer through as its JSON text when asked (over NATS), and anything else as before', async () => {
      const passThrough = { passThrough: true };
      const value = (x: unknown) => (x instanceof RawJson ? x.value() : x);
      const echo = await client.request('test.echo', { n: 21 }, passThrough);
      expect(value(echo)).toEqual({ doubled: 42 });
      const list = await client.request('test.large', {}, passThrough);
      expect((value(list) as unknown[]).length).toBe(20000);
      if (client instanceof NatsTransportClient) {
        expect(echo).toBeInstanceOf(RawJson);
        expect(Buffer.from((echo as RawJson).bytes).toString()).toBe('{"doubled":42}');
        // Gzipped over NATS (over max_payload), still passed through.
        expect(list).toBeInstanceOf(RawJson);
      } else {
        expect(echo).toEqual({ doubled: 42 });
      }
      // A handler's RawJson: the value for a caller that wants it, the text for one that passes it through.
      await expect(client.request('test.rawjson', {})).resolves.toEqual([{ a: 'ř' }]);
      const raw = await client.request('test.rawjson', {}, passThrough);
      expect(raw).toBeInstanceOf(RawJson);
      expect(Buffer.from((raw as RawJson).bytes).toString()).toBe('[{"a":"ř"}]');
      await expect(client.request('test.plain', {}, passThrough)).resolves.toBe('plain text');
      await expect(client.request('test.nothing', {}, passThrough)).resolves.toBeNull();
      await expect(client.request('test.domain', {}, passThrough)).rejects.toMatchObject({ type: 'invalid_request', status: 404, param: 'place_id' });
      await expect(client.request('test.echo', { n: 'x' }, passThrough)).rejects.toMatchObject({ type: 'invalid_parameter', param: 'n' });
    });
    it('times out with a 504, distinct from no responder (503)', async () => {
      const t0 = Date.now();
      await expect(client.request('test.slow', {}, { timeoutMs: 200 })).rejects.toMatchObject({ type: 'timeout', status: 504 });
      expect(Date.now() - t0).toBeLessThan(700);
      await expect(client.request('test.nobody', {}, { timeoutMs: 2000 })).rejects.toMatchObject({ type: 'service_unavailable', status: 503 });
    });
    it('pairs every answer with its own request, and drops a reply that comes after its request timed out', async () => {
      const slow = client.request('test.slow', {}, { timeoutMs: 100 }).catch((e: unknown) => e);
      const asked = Array.from({ length: 50 }, (_, i) => i);
      await expect(Promise.all(asked.map((n) => client.request('test.echo', { n })))).resolves.toEqual(asked.map((n) => ({ doubled: 2 * n })));
      await expect(slow).resolves.toMatchObject({ type: 'timeout', status: 504 });
      // The slow handler answers 800 ms after it was asked: requests sent around then get their own answers.
      const during = Array.from({ length: 10 }, (_, i) => new Promise((r) => setTimeout(r, 60 * i)).then(() => client.request('test.echo', { n: i })));
      await expect(Promise.all(during)).resolves.toEqual(asked.slice(0, 10).map((n) => ({ doubled: 2 * n })));
      await new Promise((r) => setTimeout(r, 300));
      await expect(client.request('test.echo', { n: 7 })).resolves.toEqual({ doubled: 14 });
    });
  });
}

async function startWith(strategy: CustomTransportStrategy): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(TestModule, { strategy, logger: false });
  await app.listen();
  return app;
}

transportContract('in-process transport', async () => {
  const bus = new InProcessBus();
  const app = await startWith(new InProcessTransportServer(bus));
  return { client: new InProcessTransportClient(bus, 2000), stop: () => app.close() };
});

describe('in-process transport: a DTO validated in this process', () => {
  let app: INestMicroservice;
  let client: InProcessTransportClient;
  beforeAll(async () => {
    const bus = new InProcessBus();
    app = await startWith(new InProcessTransportServer(bus));
    client = new InProcessTransportClient(bus, 2000);
  });
  afterAll(async () => app?.close());
  beforeEach(() => (TestHandlers.seen = []));

  it('reaches a handler of its class as the same object, not copied or validated again', async () => {
    const dto = parseRequest(EchoRequest, { n: '7' });
    await expect(client.request('test.same', dto)).resolves.toEqual({ n: 7 });
    expect(TestHandlers.seen).toHaveLength(1);
    expect(TestHandlers.seen[0]).toBe(dto);
  });
  it('is checked as JSON by a handler of another class, which still names the parameter', async () => {
    await expect(client.request('test.small', parseRequest(EchoRequest, { n: '7' }))).resolves.toEqual({ n: 7, small: true });
    await expect(client.request('test.small', parseRequest(EchoRequest, { n: '70' }))).rejects.toMatchObject({ type: 'invalid_parameter', param: 'n', status: 400 });
  });
  it('a look-alike plain object or an instance made without parseRequest is copied and validated', async () => {
    const unchecked = Object.assign(new EchoRequest(), { n: 500 });
    await expect(client.request('test.same', unchecked)).rejects.toMatchObject({ type: 'invalid_parameter', param: 'n' });
    const plain = { n: 5 };
    await expect(client.request('test.same', plain)).resolves.toEqual({ n: 5 });
    expect(TestHandlers.seen[0]).not.toBe(plain);
    expect(TestHandlers.seen[0]).toBeInstanceOf(EchoRequest);
  });
});

describeWith(['nats'], 'NATS transport', () => {
  transportContract('request-reply with a queue group', async () => {
    const url = serverUrl('nats');
    const prefix = uniqueName('t');
    const app = await startWith(new NatsTransportServer({ url, prefix, queue: 'test', name: 'test' }));
    const client = await NatsTransportClient.connect({ url, prefix, name: 'test-client', timeoutMs: 2000 });
    return { client, stop: async () => { await client.close(); await app.close(); } };
  });

  it('answers a reply too large even gzipped with a 500, and the service stays up', async () => {
    const url = serverUrl('nats');
    const prefix = uniqueName('h');
    const app = await startWith(new NatsTransportServer({ url, prefix, queue: 'test', name: 'h' }));
    const client = await NatsTransportClient.connect({ url, prefix, name: 'h-client', timeoutMs: 5000 });
    try {
      await expect(client.request('test.huge', {})).rejects.toMatchObject({ type: 'api_error', status: 500 });
      await expect(client.request('test.echo', { n: 2 })).resolves.toEqual({ doubled: 4 });
    } finally {
      await client.close();
      await app.close();
    }
  });

  it('encodes a frozen answer once and sends the same bytes again; an answer not frozen every time', async () => {
    const url = serverUrl('nats');
    const prefix = uniqueName('k');
    const app = await startWith(new NatsTransportServer({ url, prefix, queue: 'test', name: 'k' }));
    const client = await NatsTransportClient.connect({ url, prefix, name: 'k-client', timeoutMs: 5000 });
    const encode = jest.spyOn(NatsTransportServer.prototype as unknown as { encode: () => unknown }, 'encode');
    try {
      for (let i = 0; i < 3; i++) expect(await client.request('test.kept', {})).toEqual(KEPT);
      expect(encode).toHaveBeenCalledTimes(1);
      for (let i = 0; i < 2; i++) expect(await client.request<unknown[]>('test.large', {})).toHaveLength(20000);
      expect(encode).toHaveBeenCalledTimes(3);
    } finally {
      encode.mockRestore();
      await client.close();
      await app.close();
    }
  });

  it('spreads requests over the replicas of one queue group, each answered once', async () => {
    const url = serverUrl('nats');
    const prefix = uniqueName('q');
    const a = await startWith(new NatsTransportServer({ url, prefix, queue: 'test', name: 'a' }));
    const b = await startWith(new NatsTransportServer({ url, prefix, queue: 'test', name: 'b' }));
    const client = await NatsTransportClient.connect({ url, prefix, name: 'c', timeoutMs: 2000 });
    TestHandlers.calls = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => client.request<{ doubled: number }>('test.echo', { n: i })));
    expect(answers.map((x) => x.doubled)).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    // Without the queue group both replicas would run every request (40 calls).
    expect(TestHandlers.calls).toBe(20);
    await client.close();
    await a.close();
    await b.close();
  });
});

/**
 * A NATS server of the test's own, stopped and started under a client and a service: requests
 * wait for the connection, a read whose reply was lost is sent again, a write is not, and only a
 * request whose deadline passes fails (504 with Retry-After).
 */
(existsSync(NATS_SERVER_BIN) || process.env['REQUIRE_SERVERS'] === '1' ? describe : describe.skip)('NATS transport through a NATS restart', () => {
  let nats: NatsServerProcess;
  let app: INestMicroservice;
  let client: NatsTransportClient;
  const dir = tempDir('lookup-transport-nats-');
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const until = async (cond: () => boolean) => {
    const deadline = Date.now() + 5000;
    while (!cond()) {
      if (Date.now() > deadline) throw new Error('condition not met within 5 s');
      await pause(10);
    }
  };

  beforeAll(async () => {
    nats = new NatsServerProcess(await freePortRange(1), dir.path);
    await nats.start();
    app = await startWith(new NatsTransportServer({ url: nats.url, prefix: 'r', queue: 'test', name: 'r' }));
    client = await NatsTransportClient.connect({ url: nats.url, prefix: 'r', name: 'r-client', timeoutMs: 6000 });
  }, 30000);
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await nats?.stop();
    dir.remove();
  }, 30000);

  it('answers requests sent while NATS is down, and a read in flight when it went down, once it is back', async () => {
    TestHandlers.calls = 0;
    const inFlight = client.request('test.slow', {});
    await pause(200);
    await nats.stop();
    const t0 = Date.now();
    // The client hears of the closed socket a moment after the server process is gone.
    await until(() => !client.connectionState().connected);
    const duringOutage = Promise.all(Array.from({ length: 5 }, (_, i) => client.request<{ doubled: number }>('test.echo', { n: i })));
    await pause(1500);
    await nats.start();
    await expect(inFlight).resolves.toBe('late');
    expect((await duringOutage).map((a) => a.doubled)).toEqual([0, 2, 4, 6, 8]);
    // They waited for the connection, not for their deadline.
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(TestHandlers.calls).toBe(5);
    expect(client.stats.resentAfterDisconnect).toBeGreaterThanOrEqual(1);
    expect(client.connectionState()).toEqual({ connected: true, downForMs: 0 });
  }, 30000);

  it('does not send a write again when the connection dropped while it was handled', async () => {
    TestHandlers.writes = 0;
    const vote = client.request('intl.translations.vote', {}, { timeoutMs: 3000 }).catch((e: unknown) => e);
    // Stop NATS while the handler is running: its reply is then lost.
    await until(() => TestHandlers.writes === 1);
    await nats.stop();
    await pause(500);
    await nats.start();
    // The service's reply, published while it reconnects, is buffered and may still reach the
    // client within the deadline; if not, a 504 with Retry-After. Never handled twice.
    const outcome = await vote;
    const seen = outcome instanceof DomainError ? [outcome.type, outcome.status, outcome.retryAfter] : outcome;
    expect([['timeout', 504, 1], 'voted']).toContainEqual(seen);
    await pause(500);
    expect(TestHandlers.writes).toBe(1);
  }, 30000);

  it('fails only when the deadline passes while NATS is down: 504 with Retry-After, at the deadline', async () => {
    await nats.stop();
    try {
      const t0 = Date.now();
      const err = (await client.request('test.echo', { n: 1 }, { timeoutMs: 800 }).catch((e: unknown) => e)) as DomainError;
      const took = Date.now() - t0;
      expect([err.type, err.status, err.retryAfter]).toEqual(['timeout', 504, 1]);
      expect(took).toBeGreaterThanOrEqual(750);
      expect(took).toBeLessThan(2000);
    } finally {
      await nats.start();
    }
    await expect(client.request('test.echo', { n: 3 })).resolves.toEqual({ doubled: 6 });
  }, 30000);
});

/**
 * The deployed shape (k8s/nats.yaml): three nodes with routes. Stopping the node the client and
 * the service are connected to moves both to another node; no request fails.
 */
(existsSync(NATS_SERVER_BIN) || process.env['REQUIRE_SERVERS'] === '1' ? describe : describe.skip)('NATS transport over a 3-node NATS cluster', () => {
  const dir = tempDir('lookup-transport-natscl-');
  let cluster: ReturnType<typeof natsCluster>;
  let app: INestMicroservice | undefined;
  let client: NatsTransportClient | undefined;

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await Promise.all(cluster?.nodes.map((n) => n.stop()) ?? []);
    dir.remove();
  }, 30000);

  it('answers every request while the node both sides are connected to stops', async () => {
    cluster = natsCluster(await freePortRange(6), dir.path);
    await Promise.all(cluster.nodes.map((n) => n.start()));
    // Both connect to node 0 first (listed first; no randomising of the server list here).
    const first = cluster.nodes[0].url;
    app = await startWith(new NatsTransportServer({ url: first, prefix: 'cl', queue: 'test', name: 'cl' }));
    client = await NatsTransportClient.connect({ url: first, prefix: 'cl', name: 'cl-client', timeoutMs: 5000 });
    // Wait until the routes carry the service's interest to the other nodes (gossip of connect_urls too).
    const c = client;
    await expect(c.request('test.echo', { n: 1 })).resolves.toEqual({ doubled: 2 });
    await new Promise((r) => setTimeout(r, 1000));
    const answers: Promise<unknown>[] = [];
    const stopping = cluster.nodes[0].stop();
    const t0 = Date.now();
    while (Date.now() - t0 < 2500) {
      answers.push(c.request<{ doubled: number }>('test.echo', { n: 7 }).then((a) => a.doubled, (e: DomainError) => `${e.status} ${e.type}`));
      await new Promise((r) => setTimeout(r, 50));
    }
    await stopping;
    const results = await Promise.all(answers);
    expect(results.filter((r) => r !== 14)).toEqual([]);
    expect(results.length).toBeGreaterThan(20);
    expect(c.connectionState().connected).toBe(true);
    // It really moved: now on another node of the cluster.
    expect(c.connection.getServer()).not.toContain(`:${cluster.nodes[0].port}`);
  }, 60000);
});
