-- Who last changed a result version's status (confirmed, disputed,
-- approved) and when: a dispute's note is shown as the disputing captain's,
-- not as the entering one's.
ALTER TABLE result_versions ADD COLUMN status_by INTEGER REFERENCES users (id);
ALTER TABLE result_versions ADD COLUMN status_at TEXT;
