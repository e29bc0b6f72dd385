/**
 * The benchmark's baseline: the least a server can do to store a note — express, JSON, one
 * pg insert. Runs as its own process, like Noted, so neither shares a thread with the load.
 */
import express from 'express';
import pg from 'pg';

const databaseUrl = process.env.DATABASE_URL;
const port = Number(process.env.PORT ?? 0);
if (!databaseUrl) throw new Error('DATABASE_URL is required');

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
await pool.query(
  `create table if not exists baseline_notes (id uuid primary key default gen_random_uuid(),
     user_id uuid not null, title text not null, body text not null, tags text[] not null,
     created_at timestamptz not null default now(), updated_at timestamptz not null default now())`,
);
const app = express();
app.use(express.json());
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
app.post('/notes', async (req, res) => {
  const { rows } = await pool.query(
    'insert into baseline_notes (user_id, title, body, tags) values ($1, $2, $3, $4) returning *',
    ['00000000-0000-4000-8000-000000000001', req.body.title, req.body.note, req.body.tags],
  );
  res.status(201).json(rows[0]);
});
app.listen(port, '127.0.0.1');
