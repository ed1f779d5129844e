-- Sync (issue 17): sync_expect(ok, what) fails the statement, and so its transaction, with
-- serialization_failure (SQLSTATE 40001) unless ok is true. A live edit decided from what this
-- server instance remembers of its workspace (sync/cached.go) is written in one round trip behind
-- two such guards: the transaction goes through only if the database still holds what was
-- remembered, and is rolled back whole otherwise (the push is then committed the general way).
-- 40001 never comes from anything else here: every transaction runs in READ COMMITTED.
CREATE FUNCTION sync_expect(ok BOOLEAN, what TEXT) RETURNS BOOLEAN
LANGUAGE plpgsql AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'sync_expect: % changed', what USING ERRCODE = 'serialization_failure';
    END IF;
    RETURN TRUE;
END
$$;
