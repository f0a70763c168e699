-- What a continuation at a door needs of a decided call, and what is kept of a held call's arguments once
-- its window passed (docs/approvals.md "What Valve stores").
-- The capability token issued with an approve or edit, and the seq of the decision's audit record: a
-- door's continuation hands over exactly the token the audit record commits to.
ALTER TABLE approvals ADD COLUMN capability TEXT;
ALTER TABLE approvals ADD COLUMN audit_seq INTEGER;
-- Lowercase hex SHA-256 of the JCS bytes of the held arguments (what the audit record commits to as
-- heldArgsSha256): it stays when the arguments themselves are purged after the window.
ALTER TABLE approvals ADD COLUMN args_sha256 TEXT;
ALTER TABLE approvals ADD COLUMN args_purged_at INTEGER;
-- The rows whose arguments are still kept, by the end of their window, for the purge.
CREATE INDEX approvals_unpurged ON approvals (expires_at) WHERE args_purged_at IS NULL;
