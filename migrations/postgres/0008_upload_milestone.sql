-- A resumable upload's milestone tag (issue 18), named when the upload is created and
-- given to the photo when its last byte arrives, maybe a day later. No foreign key:
-- the milestone may be deleted meanwhile, and the photo is then stored untagged.
ALTER TABLE uploads ADD COLUMN milestone_id TEXT;
