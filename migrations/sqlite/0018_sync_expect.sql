-- Sync (issue 17): Postgres's sync_expect (see postgres/0018_sync_expect.sql). Nothing on SQLite:
-- its pushes commit without network round trips, so they always take the general way.
SELECT 1;
