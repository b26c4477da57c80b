-- The spider-solver catalog, schema version 5 (PRAGMA user_version = 5).
--
-- This file is the schema: spider_solver/catalog/schema.py loads it and creates a new
-- catalog from it, and the migrations (spider_solver/catalog/migrations.py) rebuild the
-- results table of an older catalog from its first statement.
--
-- An SQLite database in WAL mode. PRAGMA application_id = 1397764419 (0x53503143, "SP1C")
-- marks the file as a catalog; the catalog refuses any other database, and a user_version
-- higher than the one it knows, and upgrades an older one in place, in one transaction
-- (version 1 had no CHECK on reason; version 2 had no difficulty columns; version 3 had no
-- par and no improve record; version 4 had no games table). tests/catalog/test_schema.py checks that the lists of
-- statuses and reasons below are spider_solver.outcomes' Status and Reason.
--
-- difficulty, difficulty_raw and grader_version are set together, on verified rows only:
-- the grade 1 (very easy) to 5 (very hard) of the deal for a person, the fair player's raw
-- figure (0 to 100) behind it, and the grader's version (docs: Difficulty).
--
-- par is the score of the stored line of a verified row, the shortest known (the replace
-- rule keeps only shorter lines); improve_nodes, improve_seconds and improve_version record
-- the `spider-solve improve` pass on the stored line, so that a rerun at the same or a
-- smaller node budget skips it; a new line comes without a record (docs: improve).

-- One row per game code: the best result found so far (docs/commands/batch.md, "The replace rule").
CREATE TABLE results (
    code           TEXT    PRIMARY KEY,                 -- canonical game code, SP1-S4C-AAAAAAD
    suits          INTEGER NOT NULL CHECK (suits IN (1, 2, 4)),
    rule           TEXT    NOT NULL CHECK (rule IN ('classic', 'relaxed')),
    deal           INTEGER NOT NULL CHECK (deal >= 0),  -- the deal number the code encodes
    status         TEXT    NOT NULL CHECK (status IN ('verified', 'unwinnable', 'unknown')),
    solution       TEXT    NOT NULL DEFAULT '',         -- action notation, space separated; '' unless verified
    moves          INTEGER,                             -- actions in the solution (moves and deals)
    score          INTEGER,                             -- final score of the solution as the app counts it
    nodes          INTEGER NOT NULL,                    -- nodes searched
    seconds        REAL    NOT NULL,                    -- search time
    max_nodes      INTEGER NOT NULL,                    -- node budget of the search
    max_seconds    REAL,                                -- time budget; NULL for none
    reason         TEXT    NOT NULL                     -- why the search stopped (docs/commands/verify.md)
                   CHECK (reason IN ('won', 'exhausted', 'nodes', 'seconds', 'interrupted', 'widths', 'levels', 'proof-gave-up', 'rejected')),
    solver_version TEXT    NOT NULL,                    -- spider-solver version of the worker
    solved_at      TEXT    NOT NULL,                    -- UTC, ISO 8601: 2026-01-31T12:00:00Z
    difficulty     INTEGER CHECK (difficulty BETWEEN 1 AND 5),  -- 1 very easy .. 5 very hard; NULL: not graded
    difficulty_raw REAL    CHECK (difficulty_raw BETWEEN 0 AND 100),  -- the fair player's figure behind it
    grader_version TEXT,                                -- the grader that gave it (docs/commands/difficulty.md)
    par            INTEGER,                             -- score of the shortest known line; NULL unless verified
    improve_nodes  INTEGER CHECK (improve_nodes >= 0),  -- nodes `improve` spent on this line; NULL: none
    improve_seconds REAL   CHECK (improve_seconds >= 0),  -- seconds `improve` took on this deal, all its passes
    improve_version TEXT,                               -- spider-solver version of that improve pass
    CHECK (status <> 'verified' OR (solution <> '' AND moves IS NOT NULL AND score IS NOT NULL)),
    CHECK ((status = 'verified') = (reason = 'won') AND (status = 'unwinnable') = (reason = 'exhausted')),
    CHECK (difficulty IS NULL OR status = 'verified'),
    CHECK ((difficulty IS NULL) = (difficulty_raw IS NULL) AND (difficulty IS NULL) = (grader_version IS NULL)),
    CHECK ((status = 'verified') = (par IS NOT NULL) AND (par IS NULL OR par = score)),
    CHECK (improve_nodes IS NULL OR status = 'verified'),
    CHECK ((improve_nodes IS NULL) = (improve_seconds IS NULL) AND (improve_nodes IS NULL) = (improve_version IS NULL)),
    UNIQUE (suits, rule, deal)
);

-- Deals a batch has planned but not yet finished. A batch adds its whole plan in one
-- transaction; each result is written together with the removal of its row, in one
-- transaction; the next batch of the same suit count and rule takes over what is left.
CREATE TABLE pending (
    code       TEXT    PRIMARY KEY,
    suits      INTEGER NOT NULL,
    rule       TEXT    NOT NULL,
    deal       INTEGER NOT NULL,
    planned_at TEXT    NOT NULL,
    UNIQUE (suits, rule, deal)
);

-- Finished games the service recorded (POST /v1/games; docs/service.md, "Finished games and
-- receipts"). No player's identity: only the name the frontend chose to send, inside the record.
-- At most MAX_STORED_GAMES rows (spider_solver/limits.py): past it the oldest go.
--   id           32 hexadecimal digits, random
--   deal_key     the game code, or 'deck:' and the SHA-256 of an explicit deck
--   challenge    the challenge the frontend chose; '' for none
--   won, score, moves, finished_at (UTC, ISO 8601): what ranks the games of a deal
--   record       the canonical JSON a receipt signs (spider_solver.games.canonical)
--   once         what makes a game submitted again the same game (the deal, its options, the
--                log, the name and the challenge): one row per game (games_once)
--   redeemed_at  when its receipt was redeemed (POST /v1/games/verify with "redeem"); NULL: not
--                yet. A second redemption is refused.
-- (No comment inside these statements: SQLite keeps their text in the schema's first page.)
CREATE TABLE games (
    id          TEXT    PRIMARY KEY,
    deal_key    TEXT    NOT NULL,
    challenge   TEXT    NOT NULL DEFAULT '',
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    score       INTEGER NOT NULL,
    moves       INTEGER NOT NULL,
    finished_at TEXT    NOT NULL,
    record      TEXT    NOT NULL,
    once        TEXT    NOT NULL,
    redeemed_at TEXT
);

-- The best results of a deal (and challenge) first: won, higher score, fewer moves, earlier.
CREATE INDEX games_by_deal ON games (deal_key, challenge, won DESC, score DESC, moves, finished_at);

-- A game submitted again is the game stored.
CREATE UNIQUE INDEX games_once ON games (once);
