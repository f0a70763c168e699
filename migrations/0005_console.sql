-- What the operator's console lists (GET /v1/admin/keys, /tenants, /usage, /receipts), each an index
-- seek or range instead of a scan. Metadata only: no table here holds content.

-- Each tenant's monthly cap as last set through PUT /v1/admin/tenants/{tenant}/budget, so the tenants
-- list reads every cap in one query. Admission enforces the cap its TenantBudget Durable Object holds;
-- this row is written after that object took it, and removed when the cap is.
CREATE TABLE tenant_caps (
  tenant TEXT PRIMARY KEY,
  monthly_cap_usd REAL NOT NULL,
  updated_at INTEGER NOT NULL
);
-- Keys newest first, a page at a time.
CREATE INDEX api_keys_created ON api_keys (created_at, id);
-- A key's last use: its newest usage record, one index entry.
CREATE INDEX usage_records_key_time ON usage_records (key_id, created_at);
-- Usage of every tenant between two days.
CREATE INDEX usage_records_day ON usage_records (day);
-- Issued receipts of every tenant, newest first.
CREATE INDEX receipts_issued ON receipts (iat, tenant, id) WHERE state = 'issued';
