-- One usage record per request (seed 000 UsageRecord, no content), and per-key rate limits.
CREATE TABLE usage_records (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant TEXT NOT NULL,
  key_id TEXT,
  route TEXT NOT NULL,
  model TEXT NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  latency_ms INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  fallbacks INTEGER NOT NULL,
  stream INTEGER NOT NULL,
  cost_usd REAL NOT NULL,
  created_at INTEGER NOT NULL,
  day TEXT NOT NULL
);
CREATE INDEX usage_records_tenant_day ON usage_records (tenant, day);

ALTER TABLE api_keys ADD COLUMN rate_limit_per_minute INTEGER;
