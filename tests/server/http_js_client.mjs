// @clickhouse/client, unmodified, against Granary's HTTP interface: ping, JSONEachRow insert,
// JSON select, and a server error surfacing as the client's own error object.
// Usage: node http_js_client.mjs <url> (NODE_PATH names the folder holding @clickhouse/client).
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';

const require = createRequire(process.env.NODE_PATH + '/');
const { createClient } = require('@clickhouse/client');

const client = createClient({ url: process.argv[2], username: 'default', password: '' });

const ping = await client.ping();
assert.equal(ping.success, true, 'ping');

await client.command({ query: 'CREATE TABLE js_t (id UInt32, name String, day Date) ORDER BY id' });
const rows = [];
for (let id = 0; id < 1000; ++id) {
  rows.push({ id, name: `name ${id % 7}`, day: `2024-01-${String(1 + (id % 28)).padStart(2, '0')}` });
}
await client.insert({ table: 'js_t', values: rows, format: 'JSONEachRow' });

const result = await client.query({
  query: 'SELECT name, count() AS c, sum(id) AS s FROM js_t GROUP BY name ORDER BY name',
});
const json = await result.json();
assert.equal(json.rows, 7);
assert.deepEqual(json.meta.map((column) => column.name), ['name', 'c', 's']);
const expected = new Map();
for (const row of rows) {
  const entry = expected.get(row.name) ?? { c: 0, s: 0 };
  entry.c += 1;
  entry.s += row.id;
  expected.set(row.name, entry);
}
for (const row of json.data) {
  assert.equal(Number(row.c), expected.get(row.name).c, `count of ${row.name}`);
  assert.equal(Number(row.s), expected.get(row.name).s, `sum of ${row.name}`);
}

const each = await (await client.query({ query: 'SELECT id, day FROM js_t WHERE id = 30', format: 'JSONEachRow' })).json();
assert.deepEqual(each, [{ id: 30, day: '2024-01-03' }]);

await assert.rejects(
  client.query({ query: 'SELECT * FROM no_such_table' }),
  (error) => {
    assert.equal(error.code, '60', `error code, got ${JSON.stringify(error)}`);
    assert.equal(error.type, 'UNKNOWN_TABLE');
    return true;
  },
);
await assert.rejects(
  client.insert({ table: 'js_t', values: [{ id: 'not a number' }], format: 'JSONEachRow' }),
  (error) => error.code === '27',
);
const count = await (await client.query({ query: 'SELECT count() AS n FROM js_t', format: 'JSONEachRow' })).json();
assert.equal(Number(count[0].n), 1000, 'the failed insert left nothing');

await client.close();
console.log('http_js_client: ok');
