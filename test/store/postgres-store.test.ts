import pg from 'pg';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { StoreOpenError, StoreSchemaTooNewError } from '../../src/core/store-errors.js';
import { openStore } from '../../src/store/index.js';
import { openPostgresStore, PG_MIGRATIONS } from '../../src/store/postgres/index.js';
import { dropSchemas, freshSchemaName, openPgTestStore, PG_URL, requirePostgres } from './pg-fixtures.js';
import { commandScopeOf, newCall, turnWithCalls } from './record-fixtures.js';

beforeAll(requirePostgres);

/** A plain client on the test database, ended when the test ends. */
async function admin(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  onTestFinished(() => client.end());
  return client;
}

/** A schema name dropped when the test ends. */
function schemaForTest(): string {
  const schema = freshSchemaName();
  onTestFinished(() => dropSchemas([schema]));
  return schema;
}

describe('opening a PostgreSQL store', () => {
  it('migrates a new schema through every step once, and opening it again changes nothing', async () => {
    const schema = schemaForTest();
    const first = await openPostgresStore({ url: PG_URL, schema });
    await first.createSession({ id: 'kept' });
    await first.close();
    const again = await openPostgresStore({ url: PG_URL, schema });
    onTestFinished(() => again.close());
    expect((await again.getSession('kept'))?.id).toBe('kept');
    const client = await admin();
    const { rows } = await client.query(
      `SELECT version, name FROM "${schema}".toolseam_schema ORDER BY version`,
    );
    expect(rows.map((r) => r.version)).toEqual(PG_MIGRATIONS.map((m) => m.version));
    expect(rows.at(-1)?.version).toBe(PG_MIGRATIONS.length);
  });

  it('three processes opening one new schema at once each find it whole, every step run once', async () => {
    const schema = schemaForTest();
    const stores = await Promise.all([1, 2, 3].map(() => openPostgresStore({ url: PG_URL, schema })));
    onTestFinished(async () => {
      await Promise.all(stores.map((s) => s.close()));
    });
    const made = await stores[0]?.createSession({ title: 'from one' });
    expect((await stores[2]?.getSession(made?.id ?? ''))?.title).toBe('from one');
    const client = await admin();
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM "${schema}".toolseam_schema`);
    expect(rows[0]?.n).toBe(PG_MIGRATIONS.length);
  });

  it('takes the schema from ?schema= in the URL, as --db and "db" give it', async () => {
    const schema = schemaForTest();
    const store = await openStore(`${PG_URL}?schema=${schema}`);
    onTestFinished(() => store.close());
    await store.createTask({ title: 'in its own schema' });
    const client = await admin();
    const { rows } = await client.query(`SELECT title FROM "${schema}".tasks`);
    expect(rows.map((r) => r.title)).toEqual(['in its own schema']);
    expect(store.path).toContain(`schema=${schema}`);
  });

  it('refuses a schema from a newer toolseam, naming both versions', async () => {
    const schema = schemaForTest();
    await (await openPostgresStore({ url: PG_URL, schema })).close();
    const client = await admin();
    await client.query(`INSERT INTO "${schema}".toolseam_schema VALUES (99, 'from the future', 0)`);
    const open = openPostgresStore({ url: PG_URL, schema });
    await expect(open).rejects.toThrow(StoreSchemaTooNewError);
    await expect(openPostgresStore({ url: PG_URL, schema })).rejects.toThrow(
      new RegExp(`version 99.*up to ${PG_MIGRATIONS.length}`),
    );
  });

  it("refuses a schema holding another program's tables, touching none of them", async () => {
    const schema = schemaForTest();
    const client = await admin();
    await client.query(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".invoices (id int)`);
    await expect(openPostgresStore({ url: PG_URL, schema })).rejects.toThrow(
      /another program \(invoices…\).*schema of its own/,
    );
    const { rows } = await client.query(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
      [schema],
    );
    expect(rows.map((r) => r.table_name)).toEqual(['invoices']);
  });

  it('a step that fails names the step and keeps nothing of it', async () => {
    const schema = schemaForTest();
    const client = await admin();
    // A table in the way of step 1 under the name it creates, in a schema marked as a store at version 0.
    await client.query(`CREATE SCHEMA "${schema}";
      CREATE TABLE "${schema}".toolseam_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL);
      CREATE TABLE "${schema}".sessions (id int)`);
    const open = () => openPostgresStore({ url: PG_URL, schema });
    await expect(open()).rejects.toThrow(StoreOpenError);
    await expect(open()).rejects.toThrow(
      /failed at step 1 \(sessions, turns and messages\).*Nothing of this upgrade was kept/,
    );
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM "${schema}".toolseam_schema`);
    expect(rows[0]?.n).toBe(0);
  });

  it('a URL that is not one, a server that does not answer and a database that does not exist are told plainly', async () => {
    const bad = openStore('postgres://us er@:::/x');
    await expect(bad).rejects.toThrow(StoreOpenError);
    await expect(openStore('postgres://us er@:::/x')).rejects.toThrow(/postgres:\/\/USER\[:PASSWORD\]@HOST/);
    const unreachable = openStore('postgres://postgres:secret@127.0.0.1:1/test');
    await expect(unreachable).rejects.toThrow(StoreOpenError);
    const said = await openStore('postgres://postgres:secret@127.0.0.1:1/test').catch((e: Error) => e);
    expect((said as Error).message).toMatch(
      /no PostgreSQL answered there.*pg_ctlcluster --skip-systemctl-redirect/,
    );
    expect((said as Error).message).not.toContain('secret');
    const url = new URL(PG_URL);
    url.pathname = '/no_such_database_here';
    await expect(openStore(url.toString())).rejects.toThrow(/that database does not exist: create it/);
  });
  it('holds at most ?pool=N connections, and refuses a pool size that is not one', async () => {
    const schema = schemaForTest();
    const app = `toolseam_pool_${schema.slice(-8)}`;
    const store = await openStore(`${PG_URL}?schema=${schema}&pool=2&application_name=${app}`);
    onTestFinished(() => store.close());
    const pgStore = store as unknown as { transaction<T>(work: () => Promise<T>): Promise<T> };
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let entered = 0;
    let twoIn!: () => void;
    const bothIn = new Promise<void>((resolve) => {
      twoIn = resolve;
    });
    // Six transactions at once, each holding its connection until the gate opens.
    const held = Array.from({ length: 6 }, () =>
      pgStore.transaction(async () => {
        entered += 1;
        if (entered === 2) twoIn();
        await gate;
      }),
    );
    await bothIn;
    const client = await admin();
    const { rows } = await client.query(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [app],
    );
    expect(rows[0]?.n).toBe(2);
    expect(entered).toBe(2);
    open();
    await Promise.all(held);
    expect(entered).toBe(6);
    for (const bad of ['0', 'many', '1000']) {
      const said = await openStore(`${PG_URL}?schema=${schema}&pool=${bad}`).catch((e: Error) => e);
      expect(said).toBeInstanceOf(StoreOpenError);
      expect((said as Error).message).toContain(`?pool=${bad}`);
      expect((said as Error).message).toMatch(/whole number from 1 to 100/);
    }
  });
});

describe('several connections on one PostgreSQL store', () => {
  it('two processes creating a session under the same id at once: one makes it, the other is told the id is taken', async () => {
    const schema = schemaForTest();
    const first = await openPgTestStore(schema);
    const second = await openPostgresStore({ url: PG_URL, schema });
    onTestFinished(() => second.close());
    for (let round = 0; round < 8; round++) {
      const id = `same-${round}`;
      const ends = await Promise.allSettled([
        first.createSession({ id }),
        second.createSession({ id }),
        first.createSession({ id }),
        second.createSession({ id }),
      ]);
      expect(ends.filter((e) => e.status === 'fulfilled')).toHaveLength(1);
      for (const end of ends) {
        if (end.status === 'fulfilled') continue;
        expect(end.reason).toBeInstanceOf(InputError);
        expect((end.reason as Error).message).toBe(
          `A session with id "${id}" already exists; choose another id or leave it out.`,
        );
      }
    }
  });

  it('five connections racing for one leaf, one automation run and one outbox message: one wins each', async () => {
    const schema = schemaForTest();
    const first = await openPgTestStore(schema);
    const others = await Promise.all([1, 2, 3, 4].map(() => openPostgresStore({ url: PG_URL, schema })));
    onTestFinished(async () => {
      await Promise.all(others.map((s) => s.close()));
    });
    const all = [first, ...others];
    const parent = await first.createSession();
    const batch = await first.createBatch({
      parentSessionId: parent.id,
      leaves: [{ title: 'only leaf', contract: { goal: 'x' } }],
    });
    const leafId = batch.leaves[0]?.id as string;
    const children = await Promise.all(all.map(() => first.createSession()));
    const auto = await first.createAutomation({
      name: 'daily',
      schedule: 'every day',
      cron: '0 9 * * *',
      prompt: 'hi',
      nextRunAt: 1_000,
    });
    const note = await first.enqueueOutbox({ channel: 'me', service: 'test', payload: { text: 'hi' } });

    const leaves = await Promise.all(all.map((s, i) => s.claimLeaf(leafId, children[i]?.id as string)));
    const runs = await Promise.all(
      all.map((s, i) =>
        s.claimAutomationRun({
          id: auto.id,
          scheduledFor: 1_000,
          nextRunAt: 2_000,
          owner: `p${i}`,
          at: 1_500,
        }),
      ),
    );
    const notes = await Promise.all(all.map((s, i) => s.claimOutbox({ owner: `p${i}`, leaseMs: 60_000 })));

    expect(leaves.filter(Boolean)).toHaveLength(1);
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(notes.filter((n) => n.length > 0)).toHaveLength(1);
    expect(notes.flat().map((n) => n.id)).toEqual([note.id]);
    const winner = leaves.indexOf(true);
    expect((await first.getBatch(batch.id))?.leaves[0]?.childSessionId).toBe(children[winner]?.id);
    expect((await first.getAutomation(auto.id))?.lastRun?.scheduledFor).toBe(new Date(1_000).toISOString());
  });

  it('messages written at once on five connections get seqs in the order they were committed', async () => {
    const schema = schemaForTest();
    const first = await openPgTestStore(schema);
    const others = await Promise.all([1, 2, 3, 4].map(() => openPostgresStore({ url: PG_URL, schema })));
    onTestFinished(async () => {
      await Promise.all(others.map((s) => s.close()));
    });
    const session = await first.createSession();
    const turn = await first.startTurn({ sessionId: session.id, userText: 'go' });
    // A reader pages after the last seq it saw while writers keep appending: it must see each message once.
    const seen: number[] = [];
    let last = 0;
    const writes = [first, ...others].flatMap((s, i) =>
      [1, 2, 3, 4, 5].map((j) => s.appendMessage(turn.id, { role: 'assistant', content: `w${i}-${j}` })),
    );
    for (let k = 0; k < 5; k++) {
      const page = await first.listMessages(session.id, { afterSeq: last });
      for (const m of page) seen.push(m.seq);
      last = page.at(-1)?.seq ?? last;
    }
    await Promise.all(writes);
    for (const m of await first.listMessages(session.id, { afterSeq: last })) seen.push(m.seq);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(26);
  });
});

describe("a caller's transaction on PostgreSQL", () => {
  it('is seen by no other connection before it commits, and a throw leaves nothing behind', async () => {
    const schema = schemaForTest();
    const writer = await openPgTestStore(schema);
    const reader = await openPostgresStore({ url: PG_URL, schema });
    onTestFinished(() => reader.close());
    const session = await writer.createSession({ title: 'before' });
    await writer.transaction(async () => {
      await writer.updateSession(session.id, { title: 'inside' });
      await writer.createTask({ title: 'half-written' });
      expect((await reader.getSession(session.id))?.title).toBe('before');
      expect(await reader.listTasks()).toEqual([]);
    });
    expect((await reader.getSession(session.id))?.title).toBe('inside');
    await expect(
      writer.transaction(async () => {
        await writer.updateSession(session.id, { title: 'lost' });
        await writer.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), sessionId: session.id });
        throw new Error('the runtime changed its mind');
      }),
    ).rejects.toThrow(/changed its mind/);
    expect((await reader.getSession(session.id))?.title).toBe('inside');
    expect(await reader.listGrants({ sessionId: session.id })).toEqual([]);
  });

  it('a store method that fails inside it undoes only its own writes', async () => {
    const store = await openPgTestStore();
    const { session, turn } = await turnWithCalls(store, []);
    const before = (await store.listMessages(session.id)).length;
    await store.transaction(async () => {
      await store.createTask({ title: 'kept' });
      const twice = [newCall('same', 'grep', { p: 1 }), newCall('same', 'grep', { p: 2 })];
      await expect(store.recordModelReply(turn.id, { content: 'half', calls: twice })).rejects.toThrow(
        /unique in a turn/,
      );
      await store.createTask({ title: 'also kept' });
    });
    expect((await store.listTasks()).map((t) => t.title)).toEqual(['kept', 'also kept']);
    expect(await store.listMessages(session.id)).toHaveLength(before);
    expect(await store.listToolCalls({ turnId: turn.id })).toEqual([]);
  });
});
