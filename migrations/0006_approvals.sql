-- Tool calls Valve held back for a reviewer (POST /v1/approvals/{callId}, GET /v1/approvals): a row per
-- call that carried an approval request, written when its answer's receipt was issued. Unlike the other
-- tables this one holds content: the call's arguments, which the reviewer reads, and the offered tools'
-- inputSchemas, which an edit is checked against (docs/approvals.md says so to operators).
CREATE TABLE approvals (
  tenant TEXT NOT NULL,
  receipt_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  -- JSON: the arguments as held, and [{ name, inputSchema }] of every tool the request offered.
  args TEXT NOT NULL,
  tools TEXT NOT NULL,
  description TEXT,
  -- JSON array of the decisions the approval request allows.
  allowed TEXT NOT NULL,
  tainted INTEGER NOT NULL,
  held_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  -- pending, then approved, edited, rejected or responded, once; never back.
  status TEXT NOT NULL DEFAULT 'pending',
  -- JSON of the decision as taken, and the key that took it.
  decision TEXT,
  decided_by TEXT,
  decided_at INTEGER,
  PRIMARY KEY (tenant, receipt_id, call_id)
);
-- A decision names its call by id (and its receipt when the id is not enough).
CREATE INDEX approvals_call ON approvals (tenant, call_id);
-- What waits, newest first, a page at a time.
CREATE INDEX approvals_status ON approvals (tenant, status, held_at, receipt_id, call_id);
