-- Sharing progress reports (issue 28). A report link is a guest link that names one
-- report: the same hashed token, expiry and revocation, showing that report and
-- nothing else of the project; it goes with its report.
ALTER TABLE guest_links ADD COLUMN report_id uuid REFERENCES reports (id) ON DELETE CASCADE;
CREATE INDEX guest_links_report ON guest_links (report_id) WHERE report_id IS NOT NULL;
-- What a report shows, as it was made (the PDF's content): its link's page shows the
-- same, and its guests may see exactly the photos named in it.
ALTER TABLE reports ADD COLUMN content jsonb;
-- The last time it was mailed to the homeowner, and to whom (a display name).
ALTER TABLE reports ADD COLUMN mailed_at timestamptz;
ALTER TABLE reports ADD COLUMN mailed_to text;
-- A mail may carry one stored file (a report's PDF), read when it is sent.
ALTER TABLE mail_outbox ADD COLUMN attachment_key text;
ALTER TABLE mail_outbox ADD COLUMN attachment_name text;
ALTER TABLE mail_outbox ADD COLUMN attachment_type text;
