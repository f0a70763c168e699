-- The operator's console lists held calls of every tenant in one status, newest first
-- (GET /v1/admin/approvals); approvals_status serves one tenant's list, this one all tenants'.
CREATE INDEX approvals_by_status ON approvals (status, held_at, tenant, receipt_id, call_id);
