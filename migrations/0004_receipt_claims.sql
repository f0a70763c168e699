-- Claims that live as long as their request, fenced at signing. A claim ('pending') carries the
-- holder's random token, a lease its heartbeat extends, and a digest of the request keyed under the
-- caller's salt (so an exact retry can take over a dead claim while a content guess cannot be checked
-- against the table). Before its entry goes to the log, the holder turns its claim into 'signed'
-- with the JWS and the sealed replay copy, in one statement that compares its token; a row left
-- 'signed' (a crash or a failed save after the append) is completed from the log, never re-signed.
ALTER TABLE receipts ADD COLUMN claim_token TEXT;
ALTER TABLE receipts ADD COLUMN lease_until INTEGER;
ALTER TABLE receipts ADD COLUMN claim_digest BLOB;
