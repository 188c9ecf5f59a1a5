import Foundation
import SQLKit

/// One step of the schema, applied once, in order of `version`, inside a transaction.
struct Migration: Sendable {
    let version: Int
    let name: String
    let statements: [String]
    /// Statements for one engine only, run after the shared ones.
    var sqlite: [String] = []
    var postgres: [String] = []
    /// Work SQL alone cannot do (time zones), run last, in the migration's transaction.
    var backfill: (@Sendable (any SQLDatabase) async throws -> Void)?
}

/// Owns the schema: which migrations exist and which a database has applied.
package enum Migrator {
    /// Every migration, oldest first. Append; never edit one that has shipped.
    static let all: [Migration] = [
        Migration(
            version: 1, name: "users, identities, refresh tokens, entries",
            statements: [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    email TEXT NOT NULL UNIQUE,
                    password_hash TEXT,
                    created_at BIGINT NOT NULL,
                    deleted_at BIGINT,
                    token_version BIGINT NOT NULL DEFAULT 0,
                    change_seq BIGINT NOT NULL DEFAULT 0
                )
                """,
                """
                CREATE TABLE identities (
                    provider TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (provider, subject)
                )
                """,
                "CREATE INDEX identities_user ON identities (user_id)",
                """
                CREATE TABLE refresh_tokens (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    family_id TEXT NOT NULL,
                    token_hash TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)",
                "CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id)",
                """
                CREATE TABLE entries (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    tz TEXT NOT NULL,
                    duration_s DOUBLE PRECISION NOT NULL,
                    kind TEXT NOT NULL,
                    status TEXT NOT NULL,
                    failure_reason TEXT,
                    filename TEXT NOT NULL,
                    content_type TEXT,
                    audio_key TEXT,
                    size_bytes BIGINT,
                    language TEXT,
                    title TEXT,
                    tags TEXT NOT NULL DEFAULT '[]',
                    mood BIGINT,
                    transcript_raw TEXT,
                    transcript_clean TEXT,
                    no_speech BIGINT NOT NULL DEFAULT 0,
                    words TEXT,
                    change_seq BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    deleted_at BIGINT
                )
                """,
                "CREATE INDEX entries_user_change ON entries (user_id, change_seq)",
                "CREATE INDEX entries_user_created ON entries (user_id, created_at)",
            ]
        ),
        Migration(
            version: 2, name: "durable job queue",
            statements: [
                """
                CREATE TABLE jobs (
                    id TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    state TEXT NOT NULL,
                    attempts BIGINT NOT NULL DEFAULT 0,
                    max_attempts BIGINT NOT NULL,
                    run_at BIGINT NOT NULL,
                    lease_until BIGINT,
                    locked_by TEXT,
                    last_error TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX jobs_due ON jobs (state, run_at)",
            ]
        ),
        Migration(
            version: 3, name: "sign in with Apple and Google, token successors, rate limits, jobs by user",
            statements: [
                "ALTER TABLE users ADD COLUMN name TEXT",
                "ALTER TABLE identities ADD COLUMN email TEXT",
                // One identity per provider and user: a second Google account is not linked beside the first.
                "CREATE UNIQUE INDEX identities_user_provider ON identities (user_id, provider)",
                "ALTER TABLE refresh_tokens ADD COLUMN replaced_by TEXT",
                "ALTER TABLE jobs ADD COLUMN user_id TEXT",
                "CREATE INDEX jobs_user ON jobs (user_id)",
                "CREATE TABLE rate_limits (key TEXT PRIMARY KEY, tat BIGINT NOT NULL)",
                "CREATE INDEX rate_limits_tat ON rate_limits (tat)",
            ]
        ),
        Migration(
            version: 4, name: "exports",
            statements: [
                """
                CREATE TABLE exports (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    from_date TEXT NOT NULL,
                    to_date TEXT NOT NULL,
                    tz TEXT NOT NULL,
                    email TEXT,
                    formats TEXT NOT NULL,
                    origin TEXT NOT NULL,
                    status TEXT NOT NULL,
                    failure_reason TEXT,
                    entry_count BIGINT,
                    audio_count BIGINT,
                    untranscribed_count BIGINT,
                    size_bytes BIGINT,
                    blob_key TEXT,
                    link_expires_at BIGINT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX exports_user ON exports (user_id, created_at)",
            ]
        ),
        Migration(
            version: 5, name: "one complete at a time per entry",
            statements: ["ALTER TABLE entries ADD COLUMN completing_until BIGINT"]
        ),
        Migration(
            version: 6, name: "verified addresses, mailed tokens, abandoned uploads, purged job payloads",
            statements: [
                "ALTER TABLE users ADD COLUMN email_verified_at BIGINT",
                // An address an Apple or Google identity vouched for is verified.
                """
                UPDATE users SET email_verified_at = created_at WHERE EXISTS (
                    SELECT 1 FROM identities WHERE identities.user_id = users.id AND identities.provider <> 'email'
                        AND identities.email = users.email)
                """,
                """
                CREATE TABLE email_tokens (
                    token_hash TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    purpose TEXT NOT NULL,
                    email TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                )
                """,
                "CREATE INDEX email_tokens_user ON email_tokens (user_id)",
                "ALTER TABLE entries ADD COLUMN upload_expires_at BIGINT",
                // Uploads already waiting get a day from their last change.
                """
                UPDATE entries SET upload_expires_at = updated_at + 86400000
                WHERE status = 'pending_upload' AND deleted_at IS NULL
                """,
                "CREATE INDEX entries_upload_expiry ON entries (upload_expires_at) WHERE upload_expires_at IS NOT NULL",
                // Links are mailed from the configured public URL only, never from the Host a request named.
                "ALTER TABLE exports DROP COLUMN origin",
                // What the words of finished jobs carried is not kept.
                "UPDATE jobs SET payload = '{}' WHERE state IN ('succeeded', 'dead')",
            ]
        ),
        Migration(
            version: 7, name: "Apple refresh tokens, sealed, for revocation",
            statements: [
                "ALTER TABLE identities ADD COLUMN refresh_token_sealed TEXT",
                "ALTER TABLE identities ADD COLUMN token_client_id TEXT",
            ]
        ),
        SearchIndex.migration,
        SearchIndex.prefixMigration,
        Migration(
            version: 10, name: "no Apple or Google sign-in on an account whose address nobody confirmed",
            statements: [
                // Whoever made such an account may not own its address (ADR 0029); its password stays its way in.
                """
                DELETE FROM identities WHERE provider <> 'email' AND user_id IN (
                    SELECT id FROM users WHERE email_verified_at IS NULL AND password_hash IS NOT NULL)
                """
            ]
        ),
        StorageUsage.textMigration,
        VocabularyStore.migration,
        TranscriptReview.migration,
        ReminderStore.migration,
        PushSubscriptionStore.migration,
        EntryRecord.wordsEditedMigration,
        EntryStore.recentlyDeletedMigration,
        EntryRecord.transcriptionPercentMigration,
        EntryStore.importsMigration,
        SearchIndex.postgresMigration,
        DatabaseRequestCounter.microsecondsMigration,
        StorageUsage.runningTotalMigration,
        VocabularyStore.keyMigration,
        VocabularyStore.teachersMigration,
    ]

    /// Applies every migration the database lacks and answers their versions. Safe to run from many processes at once.
    @discardableResult
    package static func migrate(_ driver: any DatabaseDriver) async throws -> [Int] {
        try await apply(all, to: driver)
    }

    static func apply(_ migrations: [Migration], to driver: any DatabaseDriver) async throws -> [Int] {
        try await driver.write { db in
            if driver.engine == .postgres {
                // Concurrent `migrate`s on PostgreSQL wait for each other instead of racing.
                try await db.raw("SELECT pg_advisory_xact_lock(7310519)").run()
            }
            try await db.raw(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
                """
            ).run()
            let applied = Set(
                try await db.raw("SELECT version FROM schema_migrations").all().map {
                    try $0.decode(column: "version", as: Int.self)
                })
            var newlyApplied: [Int] = []
            for migration in migrations.sorted(by: { $0.version < $1.version }) where !applied.contains(migration.version) {
                let ownStatements = driver.engine == .postgres ? migration.postgres : migration.sqlite
                for statement in migration.statements + ownStatements {
                    try await db.raw(SQLQueryString(statement)).run()
                }
                try await migration.backfill?(db)
                try await db.raw(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: StoredTime.now()))"
                ).run()
                newlyApplied.append(migration.version)
            }
            return newlyApplied
        }
    }

    /// The newest version the database has applied; 0 for an empty database.
    package static func currentVersion(_ driver: any DatabaseDriver) async throws -> Int {
        try await driver.read { db in
            let row = try await db.raw("SELECT MAX(version) AS version FROM schema_migrations").first()
            return try row?.decodeNil(column: "version") == false ? try row!.decode(column: "version", as: Int.self) : 0
        }
    }
}
