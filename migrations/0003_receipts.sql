-- Receipt metadata (never content) and idempotency. A row is first a claim ('pending', made before
-- the model is called, so concurrent duplicates cannot both call it), then the issued receipt. The
-- replay copy is AES-GCM ciphertext under a key only the caller's salt derives, kept 24 hours.
CREATE TABLE receipts (
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  state TEXT NOT NULL,
  claimed_at INTEGER NOT NULL,
  salt_generated INTEGER,
  log_origin TEXT,
  log_index INTEGER,
  kid TEXT,
  iat INTEGER,
  provider TEXT,
  model TEXT,
  region TEXT,
  cost_usd REAL,
  jws TEXT,
  proof TEXT,
  replay BLOB,
  replay_expires_at INTEGER,
  PRIMARY KEY (tenant, id)
);
-- Replay copies past their retention are dropped as new receipts are saved.
CREATE INDEX receipts_replay_expiry ON receipts (replay_expires_at) WHERE replay IS NOT NULL;
