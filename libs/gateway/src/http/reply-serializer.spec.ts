import Fastify from 'fastify';
import { RawJson } from '@lookup/shared/transport';
import { serializeReply } from './reply-serializer';

describe('serializeReply', () => {
  it('writes a RawJson as its bytes with the JSON content type, and anything else as JSON', async () => {
    const app = Fastify();
    app.setReplySerializer(serializeReply as (payload: unknown) => string);
    const text = '[{"place_id":"cz_m500011","name":"Bludov ř"}]';
    const framed = Buffer.from(`xx${text}yy`);
    app.get('/raw', async () => new RawJson(framed.subarray(2, framed.length - 2)));
    app.get('/object', async () => ({ a: [1, 'ř'] }));
    await app.ready();
    const raw = await app.inject({ method: 'GET', url: '/raw' });
    expect([raw.statusCode, raw.headers['content-type'], raw.body, raw.headers['content-length']]).toEqual([200, 'application/json; charset=utf-8', text, String(Buffer.byteLength(text))]);
    expect(raw.json()).toEqual([{ place_id: 'cz_m500011', name: 'Bludov ř' }]);
    const obj = await app.inject({ method: 'GET', url: '/object' });
    expect([obj.headers['content-type'], obj.body]).toEqual(['application/json; charset=utf-8', '{"a":[1,"ř"]}']);
    await app.close();
  });
});
