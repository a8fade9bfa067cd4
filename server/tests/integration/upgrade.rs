//! Upgrading a Postgres database in place (migration 0009). A database of the last
//! release — migrations 0001–0008 recorded in `_sqlx_migrations` exactly as that
//! release's migrator recorded them, ids as text, times as BIGINT milliseconds, flags as
//! 0/1, days as `YYYY-MM-DD` text, JSON as text — is filled with rows in every table,
//! then opened by this build, which converts it to `uuid`, `timestamptz`, `boolean`,
//! `date` and `jsonb`. Every row must read back as it was written (through the store
//! where it has a reader, with SQL otherwise), every time to the millisecond, and the
//! schema must keep its keys, indexes, checks and cascades.
//!
//! Postgres only: runs when `TEST_DATABASE_URL` is set, and fails without it in CI.

// Rows are compared as tuples of their columns.
#![allow(clippy::type_complexity)]

use std::collections::BTreeMap;

use protocol::{GuestPhotos, ImageCategory, NotificationKind, ProgressMode, ProjectStatus, Role, TimelineDetail, TimelinePhoto};
use sitecast::store::activity::{self, ActivityRow};
use sitecast::store::comments::{self, CommentRow};
use sitecast::store::guest_links::{self, GuestLinkRow};
use sitecast::store::images::{self, ImageRow};
use sitecast::store::login_failures::{self, Window};
use sitecast::store::milestones::{self, MilestoneRow};
use sitecast::store::notifications::{self, NotificationRow};
use sitecast::store::outbox::{self, OutboxKind, OutboxPending, OutboxRow, Queued, QueuedMail};
use sitecast::store::projects::{self, ProjectRow};
use sitecast::store::sessions::{self, SessionRow};
use sitecast::store::tokens::{self, TokenRow};
use sitecast::store::uploads::{self, BatchRow, UploadRow};
use sitecast::store::users::{self, NewUser, UserRow};
use sitecast::store::{keys, MailPreferencesRow, Store, StoreError, TokenKind};
use sitecast_store_postgres::MIGRATIONS;
use sqlx::postgres::PgPoolOptions;
use sqlx::types::time::OffsetDateTime;
use sqlx::PgPool;

use crate::support::postgres_database;

/// SHA-384 of migrations 0001–0008 as the last release shipped them, which every existing
/// database has recorded in `_sqlx_migrations`: changing one of those files now makes
/// every deployed database refuse to start (VersionMismatch). Never edit them; add a
/// migration instead.
const RELEASED_CHECKSUMS: [(i64, &str); 8] = [
    (1, "7f2750a2b093e6656b3a28140a00f188c9bdc0b88d5615992ae9b08a1380a64f6e129272453906858dff7e7a239af4bb"),
    (2, "b6acf3cf47816722580b1dbf7a7d56b7a3c47b035555516963427b61b2cd043052286d35940a2ac7ba168d8851facc47"),
    (3, "e0d9eddb0c2a0ea3cc7df00d533d4730b0c4cebc18e12bd5069b53930616b242bcb897ccbff64e7dce263e40696cfda6"),
    (4, "f1e327e0b8aba1962fba177ac11fb204f21544e0f76de8aaa0089b7b636360e043428990b201fc439173aaae9c27c802"),
    (5, "7dde010623bf1c719cd2863496ba6e6f86aabbcf949e16a5d4d7ab30740f9ce8bd6139078b1909f37e8673c256c419c6"),
    (6, "b3baa6163ceb0b11f4451a560e0fa6ad49b32d9f3615b2ca4fa3b4b0df2cbcba7dfee02dfb694fb4a9bcbfe805ae8a12"),
    (7, "3148545a7aa4481a68e87d50f7acd2037021269d53a6a52f5eed16ac83f0239d37692004395470cae7c480e01c16e693"),
    (8, "eff7898bf53e2ffd572353be1211ea8b75d5c4f4c4866efbcf8668aac1789c65174f6b1f71f7e41b5cd0133bc8de5865"),
];

/// Every table of migrations 0001–0008.
const TABLES: [&str; 18] = [
    "auth_tokens",
    "contact_messages",
    "guest_links",
    "login_failures",
    "logs",
    "mail_outbox",
    "milestones",
    "notifications",
    "photo_comments",
    "project_activity",
    "project_images",
    "projects",
    "server_keys",
    "sessions",
    "upload_batches",
    "uploads",
    "user_favourites",
    "users",
];

// ---- the rows: ids of several UUID versions, times with non-round milliseconds

/// 2024-11-24T17:36:52.345Z.
const T: i64 = 1_732_469_812_345;
/// 1999-12-31T23:59:59.999Z: a photo's EXIF time, long before the account.
const Y2K_EVE: i64 = 946_684_799_999;
/// 2100-01-01T00:00:00.001Z.
const FAR: i64 = 4_102_444_800_001;
/// 2024-03-10T07:00:00.007Z, the hour US clocks sprang forward.
const DST: i64 = 1_710_054_000_007;

const ADMIN: &str = "5f1c2a7e-3b8d-4c6f-9a1e-2d4b6c8e0f13";
const BUILDER: &str = "a3e9b0d2-7c41-4e5a-8b6f-0123456789ab";
const HOMEOWNER: &str = "0192f3a4-b5c6-7d8e-9f01-23456789abcd";
const INVITED: &str = "c0ffee00-0000-4000-8000-000000000001";
const PROJECT: &str = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
const PROJECT_2: &str = "d9428888-122b-41e4-a7b2-6c0e0b0a0f3e";
const PHOTO_1: &str = "01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e0f";
const PHOTO_2: &str = "01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e10";
const PHOTO_3: &str = "f47ac10b-58cc-4372-a567-0e02b2c3d479";
const MILESTONE_1: &str = "2c1d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f";
const MILESTONE_2: &str = "3d2e5f60-7b8c-4d9e-8f10-2b3c4d5e6f70";
const MILESTONE_3: &str = "4e3f6071-8c9d-4eaf-9021-3c4d5e6f7081";
const MILESTONE_P2: &str = "5f407182-9dae-4fb0-a132-4d5e6f708192";
/// Named by an upload after its milestone was deleted (uploads.milestone_id has no key).
const MILESTONE_GONE: &str = "deadbeef-dead-4eef-8eef-deadbeefdead";
const BATCH: &str = "01933a1d-0000-7000-8000-00000000b001";
const BATCH_OPEN: &str = "01933a1d-0000-7000-8000-00000000b002";
const UPLOAD_STORED: &str = "8f14e45f-ceea-467f-a0e6-6c1b1c8b0e01";
const UPLOAD_REFUSED: &str = "8f14e45f-ceea-467f-a0e6-6c1b1c8b0e02";
const UPLOAD_OPEN: &str = "8f14e45f-ceea-467f-a0e6-6c1b1c8b0e03";
const FAVOURITE_1: &str = "9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c01";
const FAVOURITE_2: &str = "9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c02";
const FAVOURITE_3: &str = "9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c03";
const COMMENT_1: &str = "01933a20-1111-7222-8333-444455556601";
const COMMENT_2: &str = "01933a20-1111-7222-8333-444455556602";
const NOTE_COMMENT: &str = "b1a2c3d4-e5f6-4789-9abc-def012345601";
const NOTE_STATUS: &str = "b1a2c3d4-e5f6-4789-9abc-def012345602";
const NOTE_PHOTOS: &str = "b1a2c3d4-e5f6-4789-9abc-def012345603";
const ACT_CREATED: &str = "01933a00-aaaa-7bbb-8ccc-dddddddd0001";
const ACT_PHOTOS: &str = "01933a00-aaaa-7bbb-8ccc-dddddddd0002";
const ACT_COMMENT: &str = "01933a00-aaaa-7bbb-8ccc-dddddddd0003";
const ACT_MILESTONE: &str = "01933a00-aaaa-7bbb-8ccc-dddddddd0004";
const ACT_PROGRESS: &str = "01933a00-aaaa-7bbb-8ccc-dddddddd0005";
const LOG_JSON: &str = "e1e2e3e4-0001-4000-8000-00000000a001";
const LOG_TEXT: &str = "e1e2e3e4-0001-4000-8000-00000000a002";
const LOG_NONE: &str = "e1e2e3e4-0001-4000-8000-00000000a003";
const CONTACT: &str = "7d444840-9dc0-11d1-b245-5ffdce74fad2";
const MAIL_LEASED: &str = "0f0e0d0c-0b0a-4909-8807-060504030201";
const MAIL_SENT: &str = "0f0e0d0c-0b0a-4909-8807-060504030202";
const MAIL_DUE: &str = "0f0e0d0c-0b0a-4909-8807-060504030203";
const SESSION: &str = "12345678-9abc-4def-8123-456789abcdef";
const SESSION_ADMIN: &str = "12345678-9abc-4def-8123-456789abcdf0";
const LINK_1: &str = "aaaaaaaa-bbbb-4ccc-9ddd-eeeeeeee0001";
const LINK_2: &str = "aaaaaaaa-bbbb-4ccc-9ddd-eeeeeeee0002";

const SESSION_HASH: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const SESSION_ADMIN_HASH: &str = "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752";
const TOKEN_INVITE: &str = "fd61a03af4f77d870fc21e05e7e80678095c92d808cfb3b5c279ee04c74aca13";
const TOKEN_RESET: &str = "a4e624d686e03ed2767c0abd85c14426b0b1157d2ce81d27bb4fe4f6f01d688a";
const TOKEN_CONFIRM: &str = "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8";
const LIMITED_KEY: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const LINK_1_HASH: &str = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";
const LINK_2_HASH: &str = "fcde2b2edba56bf408601fb721fe9b5c338d10ee429ea04fae5511b68fbf8fb9";

fn flag(b: bool) -> i64 {
    i64::from(b)
}

/// A `timestamptz` as UTC milliseconds; a value with a fraction of a millisecond fails.
fn ms(t: OffsetDateTime) -> i64 {
    let nanos = t.unix_timestamp_nanos();
    assert_eq!(nanos % 1_000_000, 0, "{t} is not a whole millisecond");
    i64::try_from(nanos / 1_000_000).unwrap()
}

fn opt_ms(t: Option<OffsetDateTime>) -> Option<i64> {
    t.map(ms)
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

struct Users {
    admin: UserRow,
    builder: UserRow,
    homeowner: UserRow,
    invited: UserRow,
}

fn users() -> Users {
    Users {
        admin: UserRow {
            id: ADMIN.into(),
            email: "ada@sitecast.test".into(),
            role: Role::Admin,
            name: Some("Ada Admin".into()),
            first_name: Some("Ada".into()),
            last_name: Some("Admin".into()),
            phone: None,
            builder_id: None,
            password_hash: Some("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$Vm0xd2QxSXhiRWhVYmxKWFltMTRXRmxyWkZOak1WSlZVMjA".into()),
            email_confirmed_at: Some(T - 9_876_543_210),
            last_sign_in_at: Some(T + 3_599_999),
            created_at: T - 10_000_000_001,
            updated_at: T - 5_000_000_003,
            version: 4,
            company_id: None,
            company_role: None,
            all_projects: false,
            company_name: None,
        },
        builder: UserRow {
            id: BUILDER.into(),
            email: "bob@builders.example".into(),
            role: Role::Builder,
            name: Some("Bob Builder".into()),
            first_name: Some("Bob".into()),
            last_name: Some("Builder".into()),
            phone: Some("+1 (555) 010-0199".into()),
            builder_id: None,
            password_hash: Some("$argon2id$v=19$m=19456,t=2,p=1$YnVpbGRlcnNhbHQ$Zm9vYmFyYmF6cXV4".into()),
            email_confirmed_at: Some(T - 7_000_000_017),
            last_sign_in_at: Some(T + 7_001),
            created_at: T - 8_000_000_019,
            updated_at: T - 8_000_000_019,
            version: 1,
            // 0014 (builder companies): the owner of a one-member company of their name, which
            // keeps their id.
            company_id: Some(BUILDER.into()),
            company_role: Some(protocol::CompanyRole::Owner),
            all_projects: false,
            company_name: Some("Bob Builder".into()),
        },
        homeowner: UserRow {
            id: HOMEOWNER.into(),
            email: "hana.obrien@example.org".into(),
            role: Role::Homeowner,
            name: Some("Hana O'Brien-Łukasiewicz".into()),
            first_name: Some("Hana".into()),
            last_name: Some("O'Brien-Łukasiewicz".into()),
            phone: Some("020 7946 0958".into()),
            builder_id: Some(BUILDER.into()),
            password_hash: Some("$argon2id$v=19$m=19456,t=2,p=1$aG9tZW93bmVy$cXdlcnR5dWlvcGFzZGZnaGpr".into()),
            email_confirmed_at: Some(DST),
            last_sign_in_at: None,
            created_at: T - 777_777_777,
            updated_at: T - 1_234,
            version: 3,
            company_id: None,
            company_role: None,
            all_projects: false,
            company_name: None,
        },
        invited: UserRow {
            id: INVITED.into(),
            email: "not-yet@example.net".into(),
            role: Role::Homeowner,
            name: None,
            first_name: Some("Ina".into()),
            last_name: None,
            phone: None,
            builder_id: Some(BUILDER.into()),
            password_hash: None,
            email_confirmed_at: None,
            last_sign_in_at: None,
            created_at: T + 5,
            updated_at: T + 5,
            version: 1,
            company_id: None,
            company_role: None,
            all_projects: false,
            company_name: None,
        },
    }
}

/// Mail preferences as stored (new photos, comments, status changes).
fn mail_flags(id: &str) -> (bool, bool, bool) {
    match id {
        ADMIN => (true, true, false),
        BUILDER => (false, true, true),
        HOMEOWNER => (true, false, false),
        _ => (false, false, false),
    }
}

fn project_rows(u: &Users) -> (ProjectRow, ProjectRow) {
    let project = ProjectRow {
        id: PROJECT.into(),
        title: "Kitchen & Bath — 12 Elm".into(),
        description: "Gut the kitchen; keep the \"good\" cabinets.\nSecond line, with a tab\there.".into(),
        address: "12 Elm St, Springfield, IL 62704".into(),
        homeowner_id: HOMEOWNER.into(),
        // 0014: the builder's company, which kept the builder's id.
        company_id: Some(BUILDER.into()),
        status: ProjectStatus::InProgress,
        progress: 42,
        thumbnail_image_id: Some(PHOTO_2.into()),
        thumbnail_pinned: true,
        progress_mode: ProgressMode::Milestones,
        created_at: T - 600_000_011,
        updated_at: T + 86_400_123,
        version: 7,
        homeowner_email: u.homeowner.email.clone(),
        homeowner_name: u.homeowner.name.clone(),
        homeowner_first_name: u.homeowner.first_name.clone(),
        homeowner_last_name: u.homeowner.last_name.clone(),
        company_name: u.builder.name.clone(),
        crew: vec![],
    };
    let project_2 = ProjectRow {
        id: PROJECT_2.into(),
        title: "Deck".into(),
        description: String::new(),
        address: "1 Harbour Rd".into(),
        homeowner_id: INVITED.into(),
        company_id: None,
        status: ProjectStatus::Planning,
        progress: 0,
        thumbnail_image_id: None,
        thumbnail_pinned: false,
        progress_mode: ProgressMode::Manual,
        created_at: T + 17,
        updated_at: T + 19,
        version: 1,
        homeowner_email: u.invited.email.clone(),
        homeowner_name: u.invited.name.clone(),
        homeowner_first_name: u.invited.first_name.clone(),
        homeowner_last_name: u.invited.last_name.clone(),
        company_name: None,
        crew: vec![],
    };
    (project, project_2)
}

fn image_rows() -> Vec<ImageRow> {
    // Who uploaded each, as the store joins them.
    let u = users();
    vec![
        ImageRow {
            id: PHOTO_1.into(),
            project_id: PROJECT.into(),
            uploaded_by: Some(ADMIN.into()),
            category: ImageCategory::Structural,
            caption: Some("North wall framing — before drywall".into()),
            original_name: "IMG_2041.HEIC.jpg".into(),
            content_type: "image/jpeg".into(),
            byte_size: 3_145_731,
            width: 4032,
            height: 3024,
            taken_at: Some(Y2K_EVE),
            storage_key: format!("projects/{PROJECT}/{PHOTO_1}"),
            created_at: T + 1_017,
            updated_at: T + 2_029,
            version: 2,
            comment_count: 2,
            visit_note: Some("Framing inspection passed ✅".into()),
            batch_id: Some(BATCH.into()),
            milestone_id: Some(MILESTONE_1.into()),
            markup_count: 0,
            tags: vec![],
            location: None,
            uploader: Some(u.admin.person()),
        },
        ImageRow {
            id: PHOTO_2.into(),
            project_id: PROJECT.into(),
            uploaded_by: Some(BUILDER.into()),
            category: ImageCategory::General,
            caption: None,
            original_name: "south wall.png".into(),
            content_type: "image/png".into(),
            byte_size: 812_347,
            width: 1920,
            height: 1080,
            taken_at: None,
            storage_key: format!("projects/{PROJECT}/{PHOTO_2}"),
            created_at: T + 1_018,
            updated_at: T + 1_018,
            version: 1,
            comment_count: 0,
            visit_note: Some("Framing inspection passed ✅".into()),
            batch_id: Some(BATCH.into()),
            milestone_id: Some(MILESTONE_2.into()),
            markup_count: 0,
            tags: vec![],
            location: None,
            uploader: Some(u.builder.person()),
        },
        ImageRow {
            id: PHOTO_3.into(),
            project_id: PROJECT_2.into(),
            uploaded_by: None,
            category: ImageCategory::Other,
            caption: Some(String::new()),
            original_name: "deck.webp".into(),
            content_type: "image/webp".into(),
            byte_size: 1,
            width: 1,
            height: 1,
            taken_at: Some(T - 1),
            storage_key: format!("projects/{PROJECT_2}/{PHOTO_3}"),
            created_at: T + 333,
            updated_at: T + 444,
            version: 9,
            comment_count: 0,
            visit_note: None,
            batch_id: None,
            milestone_id: None,
            markup_count: 0,
            tags: vec![],
            location: None,
            uploader: None,
        },
    ]
}

fn milestone_rows() -> Vec<MilestoneRow> {
    vec![
        MilestoneRow {
            id: MILESTONE_1.into(),
            project_id: PROJECT.into(),
            name: "Demolition".into(),
            position: 0,
            target_date: Some("2024-02-29".into()),
            done_date: Some("2024-03-01".into()),
            created_at: T - 500_000_001,
            updated_at: T - 400_000_003,
        },
        MilestoneRow {
            id: MILESTONE_2.into(),
            project_id: PROJECT.into(),
            name: "Cabinets & counters".into(),
            position: 1,
            target_date: Some("2025-12-31".into()),
            done_date: None,
            created_at: T - 500_000_002,
            updated_at: T - 500_000_002,
        },
        MilestoneRow {
            id: MILESTONE_3.into(),
            project_id: PROJECT.into(),
            name: "Final walk-through".into(),
            position: 2,
            target_date: None,
            done_date: None,
            created_at: T - 500_000_003,
            updated_at: T - 500_000_003,
        },
        MilestoneRow {
            id: MILESTONE_P2.into(),
            project_id: PROJECT_2.into(),
            name: "Permit".into(),
            position: 0,
            target_date: Some("1999-01-01".into()),
            done_date: Some("2000-01-01".into()),
            created_at: T + 21,
            updated_at: T + 23,
        },
    ]
}

fn batch_rows() -> Vec<BatchRow> {
    vec![
        BatchRow {
            id: BATCH.into(),
            project_id: PROJECT.into(),
            user_id: BUILDER.into(),
            note: Some("Framing inspection passed ✅".into()),
            file_count: 3,
            finished: 3,
            stored: 2,
            created_at: T + 1_001,
            completed_at: Some(T + 1_019),
        },
        BatchRow {
            id: BATCH_OPEN.into(),
            project_id: PROJECT.into(),
            user_id: BUILDER.into(),
            note: None,
            file_count: 2,
            finished: 0,
            stored: 0,
            created_at: T + 50_003,
            completed_at: None,
        },
    ]
}

fn upload_rows() -> Vec<UploadRow> {
    vec![
        UploadRow {
            id: UPLOAD_STORED.into(),
            project_id: PROJECT.into(),
            user_id: BUILDER.into(),
            batch_id: Some(BATCH.into()),
            file_name: "south wall.png".into(),
            caption: None,
            category: Some(ImageCategory::General),
            length: 812_347,
            created_at: T + 1_002,
            expires_at: T + 86_401_018,
            finished_at: Some(T + 1_018),
            photo_id: Some(PHOTO_2.into()),
            refused: None,
            milestone_id: Some(MILESTONE_2.into()),
            tags: vec![],
            held: false,
        },
        UploadRow {
            id: UPLOAD_REFUSED.into(),
            project_id: PROJECT.into(),
            user_id: BUILDER.into(),
            batch_id: Some(BATCH.into()),
            file_name: "notes.pdf".into(),
            caption: Some("not a photo".into()),
            category: None,
            length: 65_537,
            created_at: T + 1_003,
            expires_at: T + 86_401_019,
            finished_at: Some(T + 1_019),
            photo_id: None,
            refused: Some("not an image we can read".into()),
            milestone_id: None,
            tags: vec![],
            held: false,
        },
        UploadRow {
            id: UPLOAD_OPEN.into(),
            project_id: PROJECT.into(),
            user_id: BUILDER.into(),
            batch_id: Some(BATCH_OPEN.into()),
            file_name: "IMG_9999.jpg".into(),
            caption: Some("Half-way".into()),
            category: Some(ImageCategory::Interior),
            length: 10_485_761,
            created_at: T + 50_004,
            expires_at: DST + 1_000_000_000_000,
            finished_at: None,
            photo_id: None,
            refused: None,
            milestone_id: Some(MILESTONE_GONE.into()),
            tags: vec![],
            held: false,
        },
    ]
}

fn comment_rows(u: &Users) -> Vec<CommentRow> {
    let by = |id: &str, author: &UserRow, body: &str, created: i64, updated: i64| CommentRow {
        id: id.into(),
        image_id: PHOTO_1.into(),
        project_id: PROJECT.into(),
        author_id: author.id.clone(),
        body: body.into(),
        created_at: created,
        updated_at: updated,
        author_email: author.email.clone(),
        author_role: author.role,
        author_name: author.name.clone(),
        author_first_name: author.first_name.clone(),
        author_last_name: author.last_name.clone(),
        author_created_at: author.created_at,
        author_company: author.company_name.clone(),
    };
    vec![
        by(COMMENT_1, &u.builder, "Sistered the joist — see @Hana's note.", T + 3_001, T + 3_997),
        by(COMMENT_2, &u.homeowner, "Looks great!\nThanks 👍 \"quoted\" \\ backslash", T + 4_001, T + 4_001),
    ]
}

/// (row, mail_pending)
fn notification_rows() -> Vec<(NotificationRow, bool)> {
    vec![
        (
            NotificationRow {
                id: NOTE_COMMENT.into(),
                user_id: HOMEOWNER.into(),
                kind: NotificationKind::Comment,
                project_id: Some(PROJECT.into()),
                image_id: Some(PHOTO_1.into()),
                actor_name: Some("Bob Builder".into()),
                title: "Bob Builder commented on a photo".into(),
                body: "Sistered the joist — see @Hana's note.".into(),
                created_at: T + 3_002,
                read_at: None,
            },
            true,
        ),
        (
            NotificationRow {
                id: NOTE_STATUS.into(),
                user_id: HOMEOWNER.into(),
                kind: NotificationKind::StatusChange,
                project_id: Some(PROJECT.into()),
                image_id: None,
                actor_name: None,
                title: "Kitchen & Bath is in progress".into(),
                body: String::new(),
                created_at: T - 99_999,
                read_at: Some(T - 11),
            },
            false,
        ),
        (
            NotificationRow {
                id: NOTE_PHOTOS.into(),
                user_id: INVITED.into(),
                kind: NotificationKind::NewPhotos,
                project_id: Some(PROJECT_2.into()),
                image_id: Some(PHOTO_3.into()),
                actor_name: Some("Ada Admin".into()),
                title: "1 new photo".into(),
                body: "Deck".into(),
                created_at: T + 334,
                read_at: None,
            },
            false,
        ),
    ]
}

fn photo(id: &str) -> TimelinePhoto {
    TimelinePhoto { id: id.into(), thumb_url: format!("/media/{id}/thumb") }
}

/// (row, its detail as the domain wrote it)
fn activity_rows() -> Vec<(ActivityRow, TimelineDetail)> {
    let entry = |id: &str, actor: Option<(&str, &str, Role)>, detail: TimelineDetail, kind: &str, subject: Option<&str>, at: i64| {
        let row = ActivityRow {
            id: id.into(),
            project_id: PROJECT.into(),
            actor_id: actor.map(|a| a.0.to_owned()),
            actor_name: actor.map(|a| a.1.to_owned()),
            actor_role: actor.map(|a| a.2),
            kind: kind.into(),
            detail: serde_json::to_string(&detail).unwrap(),
            subject_id: subject.map(str::to_owned),
            created_at: at,
        };
        (row, detail)
    };
    let mut rows = vec![
        entry(ACT_CREATED, Some((ADMIN, "Ada Admin", Role::Admin)), TimelineDetail::ProjectCreated, "project_created", None, T - 600_000_011),
        entry(
            ACT_PHOTOS,
            Some((BUILDER, "Bob Builder", Role::Builder)),
            TimelineDetail::PhotosAdded {
                count: 2,
                photos: vec![photo(PHOTO_1), photo(PHOTO_2)],
                note: Some("Framing inspection passed ✅ \u{1F3E0} \"ok\"".into()),
            },
            "photos_added",
            Some(BATCH),
            T + 1_019,
        ),
        entry(
            ACT_COMMENT,
            Some((BUILDER, "Bob Builder", Role::Builder)),
            TimelineDetail::Comment {
                comment_id: COMMENT_1.into(),
                excerpt: "Sistered the joist — see @Hana's…".into(),
                photo: photo(PHOTO_1),
            },
            "comment",
            Some(COMMENT_1),
            T + 3_001,
        ),
        entry(
            ACT_MILESTONE,
            // An account deleted since: its name and role stay.
            None,
            TimelineDetail::MilestoneCompleted { milestone_id: MILESTONE_1.into(), name: "Demolition".into() },
            "milestone_completed",
            None,
            DST,
        ),
    ];
    rows[3].0.actor_name = Some("Former Foreman".into());
    rows[3].0.actor_role = Some(Role::Builder);
    // Spelled by hand, with spacing and key order jsonb does not keep.
    let (mut progress, detail) =
        entry(ACT_PROGRESS, Some((ADMIN, "Ada Admin", Role::Admin)), TimelineDetail::ProgressChanged { from: 40, to: 42 }, "progress_changed", None, T + 86_400_123);
    progress.detail = "{ \"to\" : 42,\n  \"type\":\"progress_changed\" , \"from\": 40 }".into();
    rows.push((progress, detail));
    rows
}

/// (id, user, level, message, data)
const LOGS: [(&str, Option<&str>, &str, &str, Option<&str>); 3] = [
    (
        LOG_JSON,
        Some(HOMEOWNER),
        "error",
        "Upload failed",
        Some(r#"{"status": 413, "file": "IMG_1.jpg", "size": 52428801, "ratio": 2.5, "nested": {"list": [1, null, true, "ü"]}}"#),
    ),
    // Free-form text from a client: not JSON.
    (LOG_TEXT, Some(ADMIN), "warn", "Socket closed", Some("closed: 1006 <no reason> {not json")),
    (LOG_NONE, None, "info", "Page shown", None),
];

// ---- writing the old schema

async fn fill_old_database(c: &PgPool, u: &Users) {
    for user in [&u.admin, &u.builder, &u.homeowner, &u.invited] {
        let (new_photos, comments, status) = mail_flags(&user.id);
        sqlx::query(
            "INSERT INTO users (id, email, role, name, first_name, last_name, phone, builder_id, password_hash, \
             email_confirmed_at, last_sign_in_at, created_at, updated_at, version, mail_new_photos, mail_comments, \
             mail_status_changes) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
        )
        .bind(&user.id)
        .bind(&user.email)
        .bind(user.role.as_str())
        .bind(&user.name)
        .bind(&user.first_name)
        .bind(&user.last_name)
        .bind(&user.phone)
        .bind(&user.password_hash)
        .bind(user.email_confirmed_at)
        .bind(user.last_sign_in_at)
        .bind(user.created_at)
        .bind(user.updated_at)
        .bind(user.version)
        .bind(flag(new_photos))
        .bind(flag(comments))
        .bind(flag(status))
        .execute(c)
        .await
        .unwrap();
    }
    for user in [&u.homeowner, &u.invited] {
        sqlx::query("UPDATE users SET builder_id = $2 WHERE id = $1").bind(&user.id).bind(&user.builder_id).execute(c).await.unwrap();
    }

    for (id, user, hash, created, seen, expires, agent, ip) in [
        (SESSION, HOMEOWNER, SESSION_HASH, T, T + 61_234, T + 2_592_000_007, Some("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X)"), Some("203.0.113.7")),
        (SESSION_ADMIN, ADMIN, SESSION_ADMIN_HASH, DST - 5, DST, FAR, None, Some("2001:db8::1")),
    ] {
        sqlx::query(
            "INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, ip) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id)
        .bind(user)
        .bind(hash)
        .bind(created)
        .bind(seen)
        .bind(expires)
        .bind(agent)
        .bind(ip)
        .execute(c)
        .await
        .unwrap();
    }

    for (hash, user, kind, created, expires, used) in [
        (TOKEN_INVITE, INVITED, TokenKind::Invite, T + 6, T + 604_800_006, None),
        (TOKEN_RESET, HOMEOWNER, TokenKind::Reset, T - 3_600_001, T - 1, Some(T - 1_800_013)),
        (TOKEN_CONFIRM, BUILDER, TokenKind::ConfirmEmail, T - 8_000_000_019, T - 7_913_600_019, Some(T - 7_000_000_017)),
    ] {
        sqlx::query("INSERT INTO auth_tokens (token_hash, user_id, kind, created_at, expires_at, used_at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(hash)
            .bind(user)
            .bind(kind.as_str())
            .bind(created)
            .bind(expires)
            .bind(used)
            .execute(c)
            .await
            .unwrap();
    }

    sqlx::query("INSERT INTO login_failures (key_hash, attempts, window_ends_at) VALUES ($1, 3, $2)")
        .bind(LIMITED_KEY)
        .bind(T + 900_321)
        .execute(c)
        .await
        .unwrap();

    let (project, project_2) = project_rows(u);
    for p in [&project, &project_2] {
        // The thumbnail is set once the photos exist (projects <-> project_images).
        sqlx::query(
            "INSERT INTO projects (id, title, description, address, homeowner_id, builder_id, status, progress, \
             thumbnail_image_id, thumbnail_pinned, progress_mode, created_at, updated_at, version) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9, $10, $11, $12, $13)",
        )
        .bind(&p.id)
        .bind(&p.title)
        .bind(&p.description)
        .bind(&p.address)
        .bind(&p.homeowner_id)
        .bind(&p.company_id)
        .bind(p.status.as_str())
        .bind(p.progress)
        .bind(i32::from(p.thumbnail_pinned))
        .bind(p.progress_mode.as_str())
        .bind(p.created_at)
        .bind(p.updated_at)
        .bind(p.version)
        .execute(c)
        .await
        .unwrap();
    }

    for m in milestone_rows() {
        sqlx::query(
            "INSERT INTO milestones (id, project_id, name, position, target_date, done_date, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&m.id)
        .bind(&m.project_id)
        .bind(&m.name)
        .bind(m.position)
        .bind(&m.target_date)
        .bind(&m.done_date)
        .bind(m.created_at)
        .bind(m.updated_at)
        .execute(c)
        .await
        .unwrap();
    }

    for b in batch_rows() {
        sqlx::query(
            "INSERT INTO upload_batches (id, project_id, user_id, note, file_count, finished, stored, created_at, completed_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&b.id)
        .bind(&b.project_id)
        .bind(&b.user_id)
        .bind(&b.note)
        .bind(b.file_count)
        .bind(b.finished)
        .bind(b.stored)
        .bind(b.created_at)
        .bind(b.completed_at)
        .execute(c)
        .await
        .unwrap();
    }

    for i in image_rows() {
        sqlx::query(
            "INSERT INTO project_images (id, project_id, uploaded_by, category, caption, original_name, content_type, \
             byte_size, width, height, taken_at, storage_key, created_at, updated_at, version, comment_count, visit_note, \
             batch_id, milestone_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)",
        )
        .bind(&i.id)
        .bind(&i.project_id)
        .bind(&i.uploaded_by)
        .bind(i.category.as_str())
        .bind(&i.caption)
        .bind(&i.original_name)
        .bind(&i.content_type)
        .bind(i.byte_size)
        .bind(i.width)
        .bind(i.height)
        .bind(i.taken_at)
        .bind(&i.storage_key)
        .bind(i.created_at)
        .bind(i.updated_at)
        .bind(i.version)
        .bind(i.comment_count)
        .bind(&i.visit_note)
        .bind(&i.batch_id)
        .bind(&i.milestone_id)
        .execute(c)
        .await
        .unwrap();
    }
    sqlx::query("UPDATE projects SET thumbnail_image_id = $2 WHERE id = $1").bind(PROJECT).bind(PHOTO_2).execute(c).await.unwrap();

    for up in upload_rows() {
        sqlx::query(
            "INSERT INTO uploads (id, project_id, user_id, batch_id, file_name, caption, category, length, created_at, \
             expires_at, finished_at, photo_id, refused, milestone_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        )
        .bind(&up.id)
        .bind(&up.project_id)
        .bind(&up.user_id)
        .bind(&up.batch_id)
        .bind(&up.file_name)
        .bind(&up.caption)
        .bind(up.category.map(ImageCategory::as_str))
        .bind(up.length)
        .bind(up.created_at)
        .bind(up.expires_at)
        .bind(up.finished_at)
        .bind(&up.photo_id)
        .bind(&up.refused)
        .bind(&up.milestone_id)
        .execute(c)
        .await
        .unwrap();
    }

    for (id, user, image, project, created) in [
        (FAVOURITE_1, HOMEOWNER, PHOTO_1, PROJECT, T + 5_003),
        (FAVOURITE_2, BUILDER, PHOTO_2, PROJECT, T + 5_004),
        (FAVOURITE_3, INVITED, PHOTO_3, PROJECT_2, T + 5_005),
    ] {
        sqlx::query("INSERT INTO user_favourites (id, user_id, image_id, project_id, created_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(id)
            .bind(user)
            .bind(image)
            .bind(project)
            .bind(created)
            .execute(c)
            .await
            .unwrap();
    }

    for cm in comment_rows(u) {
        sqlx::query(
            "INSERT INTO photo_comments (id, image_id, project_id, author_id, body, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&cm.id)
        .bind(&cm.image_id)
        .bind(&cm.project_id)
        .bind(&cm.author_id)
        .bind(&cm.body)
        .bind(cm.created_at)
        .bind(cm.updated_at)
        .execute(c)
        .await
        .unwrap();
    }

    for (n, pending) in notification_rows() {
        sqlx::query(
            "INSERT INTO notifications (id, user_id, kind, project_id, image_id, title, body, created_at, read_at, \
             actor_name, mail_pending) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&n.id)
        .bind(&n.user_id)
        .bind(n.kind.as_str())
        .bind(&n.project_id)
        .bind(&n.image_id)
        .bind(&n.title)
        .bind(&n.body)
        .bind(n.created_at)
        .bind(n.read_at)
        .bind(&n.actor_name)
        .bind(flag(pending))
        .execute(c)
        .await
        .unwrap();
    }

    for (a, _) in activity_rows() {
        sqlx::query(
            "INSERT INTO project_activity (id, project_id, actor_id, actor_name, actor_role, kind, detail, subject_id, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&a.id)
        .bind(&a.project_id)
        .bind(&a.actor_id)
        .bind(&a.actor_name)
        .bind(a.actor_role.map(Role::as_str))
        .bind(&a.kind)
        .bind(&a.detail)
        .bind(&a.subject_id)
        .bind(a.created_at)
        .execute(c)
        .await
        .unwrap();
    }

    for (i, (id, user, level, message, data)) in LOGS.into_iter().enumerate() {
        sqlx::query("INSERT INTO logs (id, user_id, level, message, data, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(id)
            .bind(user)
            .bind(level)
            .bind(message)
            .bind(data)
            .bind(T + 7_000 + i64::try_from(i).unwrap())
            .execute(c)
            .await
            .unwrap();
    }

    sqlx::query("INSERT INTO contact_messages (id, name, email, phone, message, created_at) VALUES ($1, $2, $3, NULL, $4, $5)")
        .bind(CONTACT)
        .bind("Zoë Client")
        .bind("zoe@example.com")
        .bind("Hi,\nDo you build decks?\n— Zoë")
        .bind(T + 8_009)
        .execute(c)
        .await
        .unwrap();

    // (id, attempts, next_attempt_at, claimed_until, sent_at, last_error, list_unsubscribe)
    for (id, attempts, next, claimed, sent, error, unsubscribe) in [
        (MAIL_LEASED, 2, T + 300_017, Some(T + 360_019), None, Some("450 4.2.0 mailbox busy"), Some("<https://sitecast.test/api/unsubscribe?t=abc.def>")),
        (MAIL_SENT, 1, T + 5, None, Some(T + 7_001), None, None),
        (MAIL_DUE, 0, T + 200_003, None, None, None, None),
    ] {
        sqlx::query(
            "INSERT INTO mail_outbox (id, to_address, subject, body_text, body_html, created_at, attempts, next_attempt_at, \
             claimed_until, sent_at, last_error, list_unsubscribe) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(id)
        .bind(format!("{id}@example.com"))
        .bind(format!("Subject of {id}"))
        .bind(format!("Text of {id}\n"))
        .bind(format!("<p>HTML of {id}</p>"))
        .bind(T + 3)
        .bind(attempts)
        .bind(next)
        .bind(claimed)
        .bind(sent)
        .bind(error)
        .bind(unsubscribe)
        .execute(c)
        .await
        .unwrap();
    }

    sqlx::query("INSERT INTO server_keys (name, value) VALUES ('unsubscribe', 'k3y_b64url-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789')")
        .execute(c)
        .await
        .unwrap();

    for (id, created_by, hash, photos, downloads, expires, revoked, opened, created) in [
        (LINK_1, HOMEOWNER, LINK_1_HASH, GuestPhotos::Favourites, true, Some(FAR), Some(T + 9_999), Some(T + 9_001), T + 9_000),
        (LINK_2, BUILDER, LINK_2_HASH, GuestPhotos::All, false, None, None, None, T + 9_100),
    ] {
        sqlx::query(
            "INSERT INTO guest_links (id, project_id, created_by, token_hash, photos, downloads, expires_at, revoked_at, \
             last_opened_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(id)
        .bind(PROJECT)
        .bind(created_by)
        .bind(hash)
        .bind(photos.as_str())
        .bind(flag(downloads))
        .bind(expires)
        .bind(revoked)
        .bind(opened)
        .bind(created)
        .execute(c)
        .await
        .unwrap();
    }
}

fn guest_link_rows(u: &Users) -> Vec<GuestLinkRow> {
    let link = |id: &str, maker: &UserRow, photos, downloads, expires, revoked, opened, created| GuestLinkRow {
        id: String::from(id),
        project_id: PROJECT.into(),
        created_by: maker.id.clone(),
        photos,
        downloads,
        expires_at: expires,
        revoked_at: revoked,
        last_opened_at: opened,
        created_at: created,
        maker_role: maker.role,
        maker_email: maker.email.clone(),
        maker_name: maker.name.clone(),
        maker_first_name: maker.first_name.clone(),
        maker_last_name: maker.last_name.clone(),
        maker_created_at: maker.created_at,
        report_id: None,
    };
    vec![
        link(LINK_1, &u.homeowner, GuestPhotos::Favourites, true, Some(FAR), Some(T + 9_999), Some(T + 9_001), T + 9_000),
        link(LINK_2, &u.builder, GuestPhotos::All, false, None, None, None, T + 9_100),
    ]
}

// ---- the schema, before and after

#[derive(Debug, PartialEq)]
struct Schema {
    /// (table, column) -> (data_type, is_nullable, column_default)
    columns: BTreeMap<(String, String), (String, String, Option<String>)>,
    /// (table, name, definition) of every constraint: keys, foreign keys, checks.
    constraints: Vec<(String, String, String)>,
    /// (name, definition)
    indexes: Vec<(String, String)>,
}

async fn schema(c: &PgPool) -> Schema {
    let columns: Vec<(String, String, String, String, Option<String>)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, data_type::text, is_nullable::text, column_default::text \
         FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations'",
    )
    .fetch_all(c)
    .await
    .unwrap();
    let constraints = sqlx::query_as(
        "SELECT conrelid::regclass::text, conname::text, pg_get_constraintdef(oid) FROM pg_constraint \
         WHERE connamespace = current_schema()::regnamespace AND conrelid <> 0 ORDER BY 1, 2",
    )
    .fetch_all(c)
    .await
    .unwrap();
    let indexes =
        sqlx::query_as("SELECT indexname::text, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1").fetch_all(c).await.unwrap();
    Schema {
        columns: columns.into_iter().map(|(t, c, ty, null, default)| ((t, c), (ty, null, default))).collect(),
        constraints,
        indexes,
    }
}

/// Counters, sizes, versions and positions: they stay integers.
const INTEGERS: [&str; 15] = [
    "login_failures.attempts",
    "mail_outbox.attempts",
    "milestones.position",
    "project_images.byte_size",
    "project_images.comment_count",
    "project_images.height",
    "project_images.version",
    "project_images.width",
    "projects.progress",
    "projects.version",
    "upload_batches.file_count",
    "upload_batches.finished",
    "upload_batches.stored",
    "uploads.length",
    "users.version",
];

const BOOLEANS: [&str; 6] = [
    "guest_links.downloads",
    "notifications.mail_pending",
    "projects.thumbnail_pinned",
    "users.mail_comments",
    "users.mail_new_photos",
    "users.mail_status_changes",
];

/// What 0009 makes of a column of 0001–0008.
fn native_type(table: &str, column: &str, old: &str) -> String {
    let name = format!("{table}.{column}");
    let is = |list: &[&str]| list.contains(&name.as_str());
    if column == "id" || column.ends_with("_id") || is(&["project_images.uploaded_by", "guest_links.created_by"]) {
        "uuid".into()
    } else if column.ends_with("_at") || is(&["mail_outbox.claimed_until"]) {
        "timestamp with time zone".into()
    } else if is(&BOOLEANS) {
        "boolean".into()
    } else if is(&["milestones.target_date", "milestones.done_date"]) {
        "date".into()
    } else if is(&["project_activity.detail", "logs.data"]) {
        "jsonb".into()
    } else {
        old.into()
    }
}

async fn applied_migrations(c: &PgPool) -> Vec<(i64, bool, Vec<u8>)> {
    sqlx::query_as("SELECT version, success, checksum FROM _sqlx_migrations ORDER BY version").fetch_all(c).await.unwrap()
}

async fn row_counts(c: &PgPool) -> BTreeMap<String, i64> {
    let counts: Vec<(String, i64)> = sqlx::query_as(
        "SELECT 'auth_tokens', COUNT(*) FROM auth_tokens UNION ALL \
         SELECT 'contact_messages', COUNT(*) FROM contact_messages UNION ALL \
         SELECT 'guest_links', COUNT(*) FROM guest_links UNION ALL \
         SELECT 'login_failures', COUNT(*) FROM login_failures UNION ALL \
         SELECT 'logs', COUNT(*) FROM logs UNION ALL \
         SELECT 'milestones', COUNT(*) FROM milestones UNION ALL \
         SELECT 'notifications', COUNT(*) FROM notifications UNION ALL \
         SELECT 'photo_comments', COUNT(*) FROM photo_comments UNION ALL \
         SELECT 'project_activity', COUNT(*) FROM project_activity UNION ALL \
         SELECT 'project_images', COUNT(*) FROM project_images UNION ALL \
         SELECT 'projects', COUNT(*) FROM projects UNION ALL \
         SELECT 'server_keys', COUNT(*) FROM server_keys UNION ALL \
         SELECT 'sessions', COUNT(*) FROM sessions UNION ALL \
         SELECT 'upload_batches', COUNT(*) FROM upload_batches UNION ALL \
         SELECT 'uploads', COUNT(*) FROM uploads UNION ALL \
         SELECT 'user_favourites', COUNT(*) FROM user_favourites UNION ALL \
         SELECT 'users', COUNT(*) FROM users",
    )
    .fetch_all(c)
    .await
    .unwrap();
    let mut counts: BTreeMap<String, i64> = counts.into_iter().collect();
    // 0018 made the mail queue the outbox, where mail is the rows of kind 'mail'.
    let one_outbox: bool = sqlx::query_scalar("SELECT to_regclass('outbox') IS NOT NULL").fetch_one(c).await.unwrap();
    let mail: i64 = if one_outbox {
        sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE kind = 'mail'").fetch_one(c).await.unwrap()
    } else {
        sqlx::query_scalar("SELECT COUNT(*) FROM mail_outbox").fetch_one(c).await.unwrap()
    };
    counts.insert("mail_outbox".into(), mail);
    counts
}

/// The ids left in each table with an id column (none: an empty list).
async fn ids_left(c: &PgPool) -> BTreeMap<String, Vec<String>> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT 'guest_links', id::text FROM guest_links UNION ALL \
         SELECT 'milestones', id::text FROM milestones UNION ALL \
         SELECT 'notifications', id::text FROM notifications UNION ALL \
         SELECT 'photo_comments', id::text FROM photo_comments UNION ALL \
         SELECT 'project_activity', id::text FROM project_activity UNION ALL \
         SELECT 'project_images', id::text FROM project_images UNION ALL \
         SELECT 'projects', id::text FROM projects UNION ALL \
         SELECT 'sessions', id::text FROM sessions UNION ALL \
         SELECT 'upload_batches', id::text FROM upload_batches UNION ALL \
         SELECT 'uploads', id::text FROM uploads UNION ALL \
         SELECT 'user_favourites', id::text FROM user_favourites UNION ALL \
         SELECT 'users', id::text FROM users",
    )
    .fetch_all(c)
    .await
    .unwrap();
    let mut left: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (table, id) in rows {
        left.entry(table).or_default().push(id);
    }
    for ids in left.values_mut() {
        ids.sort();
    }
    left
}

/// `ids_left` as it should read: the listed tables hold exactly these ids, the rest none.
fn expect_left(tables: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
    tables
        .iter()
        .filter(|(_, ids)| !ids.is_empty())
        .map(|(table, ids)| {
            let mut ids: Vec<String> = ids.iter().map(|id| (*id).to_owned()).collect();
            ids.sort();
            ((*table).to_owned(), ids)
        })
        .collect()
}

/// A database at the last release's schema, migrated as that release's `Store::open` did:
/// its migrator held exactly 0001–0008.
async fn old_release_database(url: &str) -> PgPool {
    let old = PgPoolOptions::new().max_connections(2).connect(url).await.unwrap();
    MIGRATIONS.run_to(8, &old).await.unwrap();
    old
}

#[actix_web::test]
async fn a_database_of_the_last_release_upgrades_in_place_and_loses_nothing() {
    let Some(db) = postgres_database().await else { return };

    // ---- 1. The last release's database: 0001–0008, recorded by sqlx's migrator.
    assert!(MIGRATIONS.iter().any(|m| m.version == 9), "this build has migration 0009");
    for (version, checksum) in RELEASED_CHECKSUMS {
        let m = MIGRATIONS.iter().find(|m| m.version == version).expect("released migration present");
        assert_eq!(hex::encode(&m.checksum), checksum, "migration {version} changed since the release: deployed databases would refuse it");
    }
    let old = old_release_database(&db.url).await;
    let recorded = applied_migrations(&old).await;
    assert_eq!(recorded.iter().map(|m| m.0).collect::<Vec<_>>(), (1..=8).collect::<Vec<_>>());
    assert!(recorded.iter().all(|m| m.1));

    let mut tables: Vec<String> = sqlx::query_scalar(
        "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_sqlx_migrations'",
    )
    .fetch_all(&old)
    .await
    .unwrap();
    tables.sort();
    assert_eq!(tables, TABLES, "the test fills every table of 0001–0008");

    let u = users();
    fill_old_database(&old, &u).await;
    let counts_before = row_counts(&old).await;
    assert_eq!(counts_before.keys().collect::<Vec<_>>(), TABLES.iter().collect::<Vec<_>>());
    for (table, n) in &counts_before {
        assert!(*n > 0, "{table} has rows to convert");
    }
    let before = schema(&old).await;
    assert_eq!(before.columns.get(&("users".into(), "created_at".into())).unwrap().0, "bigint", "an old-schema database");
    old.close().await;

    // ---- 2. This build opens it. Without migrating it refuses (a release step migrates);
    // migrating runs 0009 and anything later.
    let latest = MIGRATIONS.iter().map(|m| m.version).max().unwrap();
    match Store::open(&db.url, None, false).await {
        Err(StoreError::MigrationsPending { at, needs }) => assert_eq!((at, needs), (8, latest)),
        Err(e) => panic!("expected MigrationsPending, got {e}"),
        Ok(_) => panic!("a build must not serve a database behind it"),
    }
    let store = Store::open(&db.url, None, true).await.expect("the old database upgrades");
    let pg = store.postgres_pool().expect("a Postgres store").clone();
    Store::open(&db.url, Some(1), false).await.expect("the upgraded database is current").close().await;

    let applied = applied_migrations(&pg).await;
    assert_eq!(applied.iter().map(|m| m.0).collect::<Vec<_>>(), MIGRATIONS.iter().map(|m| m.version).collect::<Vec<_>>());
    assert!(applied.len() >= 9 && applied.iter().all(|m| m.1), "{applied:?}");
    assert_eq!(applied[..8], recorded[..], "the release's records are kept as they were");
    assert_eq!(row_counts(&pg).await, counts_before, "no row lost or added");
    // 0011 indexed what was there: one search document per project, photo and comment.
    let (documents,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM search_documents").fetch_one(&pg).await.unwrap();
    assert_eq!(documents, counts_before["projects"] + counts_before["project_images"] + counts_before["photo_comments"]);

    // ---- 3. The schema: native types, everything else as it was.
    let mut after = schema(&pg).await;
    // What migrations after 0009 add (0010: photo markup), checked here and set
    // aside, so the rest compares with the release's schema.
    // 0011: tags, locations, the installation's settings and the search index.
    // 0012: progress reports.
    // 0014: builder companies and project crews.
    // 0015: second factors, passkeys, sign-in challenges, known devices.
    // 0016: push subscriptions (and the push queue, which 0018 moved into the one
    // outbox).
    let new_tables = [
        "photo_markups",
        "installation_settings",
        "search_documents",
        "reports",
        "companies",
        "project_crew",
        "totp_factors",
        "recovery_codes",
        "passkeys",
        "auth_challenges",
        "known_devices",
        "push_subscriptions",
    ];
    let later = |table: &str, column: &str| {
        new_tables.contains(&table)
            || (table == "project_images" && ["markup_count", "tags", "latitude", "longitude"].contains(&column))
            || (table, column) == ("uploads", "tags")
            // 0013: report links, and mail that carries a stored file.
            || (table, column) == ("guest_links", "report_id")
            || (table == "outbox" && column.starts_with("attachment_"))
            // 0014: each person's company and place in it; a project's builder is a company.
            || (table == "users" && ["company_id", "company_role", "all_projects"].contains(&column))
            || (table, column) == ("projects", "company_id")
            // 0015: a session's assurance.
            || (table == "sessions" && ["factor_at", "factor_kind", "enrol_required"].contains(&column))
            // 0016: which kinds each person has pushed.
            || (table == "users" && ["push_new_photos", "push_comments", "push_status_changes"].contains(&column))
            // 0018: the one outbox, whose rows are a mail or a push.
            || (table == "outbox" && ["kind", "subscription_id", "payload"].contains(&column))
            // 0020: uploads sent ahead of publishing.
            || (table, column) == ("uploads", "held")
    };
    let added: Vec<(String, String, String)> = after
        .columns
        .iter()
        .filter(|((t, c), _)| later(t, c))
        .map(|((t, c), (ty, _, _))| (t.clone(), c.clone(), ty.clone()))
        .collect();
    assert_eq!(added.len(), 103, "{added:?}");
    assert!(added.contains(&("uploads".into(), "held".into(), "boolean".into())), "{added:?}");
    assert!(added.contains(&("outbox".into(), "subscription_id".into(), "uuid".into())), "{added:?}");
    assert!(added.contains(&("sessions".into(), "factor_at".into(), "timestamp with time zone".into())), "{added:?}");
    assert!(added.contains(&("passkeys".into(), "credential".into(), "jsonb".into())), "{added:?}");
    assert!(added.contains(&("installation_settings".into(), "require_factor_admins".into(), "boolean".into())), "{added:?}");
    assert!(added.contains(&("projects".into(), "company_id".into(), "uuid".into())), "{added:?}");
    assert!(added.contains(&("users".into(), "all_projects".into(), "boolean".into())), "{added:?}");
    assert!(added.contains(&("reports".into(), "options".into(), "jsonb".into())), "{added:?}");
    assert!(added.contains(&("search_documents".into(), "document".into(), "tsvector".into())), "{added:?}");
    assert!(added.contains(&("project_images".into(), "tags".into(), "ARRAY".into())), "{added:?}");
    assert!(added.contains(&("project_images".into(), "latitude".into(), "double precision".into())), "{added:?}");
    assert!(added.contains(&("photo_markups".into(), "shapes".into(), "jsonb".into())), "{added:?}");
    assert!(added.contains(&("photo_markups".into(), "updated_at".into(), "timestamp with time zone".into())), "{added:?}");
    assert!(added.contains(&("project_images".into(), "markup_count".into(), "bigint".into())), "{added:?}");
    after.columns.retain(|(t, c), _| !later(t, c));
    // 0018 made mail_outbox the outbox in place: the release's columns are all there,
    // and a mail's message columns became nullable (a push row has none; the check
    // `outbox_carries_its_kind` still holds them for every mail). Its key is renamed
    // with it, its due index replaced, and a push's subscription key added.
    let outbox_columns: Vec<_> = after.columns.keys().filter(|(t, _)| t == "outbox").cloned().collect();
    for (table, column) in outbox_columns {
        let (ty, null, default) = after.columns.remove(&(table, column.clone())).unwrap();
        let was_required = ["to_address", "subject", "body_text", "body_html"].contains(&column.as_str());
        if was_required {
            assert_eq!(null, "YES", "outbox.{column} is a mail's only");
        }
        after.columns.insert(("mail_outbox".into(), column), (ty, if was_required { "NO".into() } else { null }, default));
    }
    let outbox_added = ["outbox_carries_its_kind", "outbox_subscription_id_fkey"];
    let check = after.constraints.iter().find(|(t, name, _)| t == "outbox" && name == "outbox_carries_its_kind").expect("the kind check").2.clone();
    assert!(check.contains("kind = 'push'") && check.contains("to_address IS NOT NULL"), "{check}");
    after.constraints.retain(|(table, name, _)| !(table == "outbox" && outbox_added.contains(&name.as_str())));
    for (table, name, _) in after.constraints.iter_mut().filter(|(t, _, _)| t == "outbox") {
        *table = "mail_outbox".into();
        *name = name.replacen("outbox_", "mail_outbox_", 1);
    }
    after.indexes.retain(|(name, _)| !["outbox_due", "outbox_subscription"].contains(&name.as_str()));
    for (name, def) in after.indexes.iter_mut().filter(|(name, _)| name == "outbox_pkey") {
        *name = "mail_outbox_pkey".into();
        *def = def.replace("outbox_pkey ON public.outbox", "mail_outbox_pkey ON public.mail_outbox");
    }
    after.constraints.retain(|(table, _, _)| !new_tables.contains(&table.as_str()));
    let added_constraints = [
        ("guest_links", "guest_links_report_id_fkey"),
        ("projects", "projects_company_id_fkey"),
        ("users", "users_company_id_fkey"),
        ("users", "users_company_role_check"),
    ];
    after.constraints.retain(|(table, name, _)| !added_constraints.contains(&(table.as_str(), name.as_str())));
    after.indexes.retain(|(name, _)| {
        !new_tables.iter().any(|t| name.starts_with(t)) && !["guest_links_report", "projects_company", "users_company"].contains(&name.as_str())
    });
    // 0014 moved projects from their builder to the builder's company: the column, its
    // key and its index went.
    let mut before = before;
    assert!(before.columns.remove(&("projects".into(), "builder_id".into())).is_some());
    before.constraints.retain(|(table, name, _)| (table.as_str(), name.as_str()) != ("projects", "projects_builder_id_fkey"));
    before.indexes.retain(|(name, _)| name != "projects_builder");
    // 0018 replaced the mail queue's due index with the outbox's, by kind.
    before.indexes.retain(|(name, _)| name != "mail_outbox_due");
    // 0019 added the gallery's order, for photos read a page at a time.
    let gallery = after.indexes.iter().position(|(name, _)| name == "project_images_gallery").expect("0019's gallery index");
    let (_, def) = after.indexes.remove(gallery);
    assert!(def.contains("COALESCE(taken_at, created_at) DESC, created_at DESC, id"), "{def}");
    let mut columns_after = after.columns.clone();
    let (ty, null, _) = columns_after.remove(&("users".into(), "mail_preferences_at".into())).expect("users.mail_preferences_at added");
    assert_eq!((ty.as_str(), null.as_str()), ("timestamp with time zone", "YES"));
    assert_eq!(columns_after.keys().collect::<Vec<_>>(), before.columns.keys().collect::<Vec<_>>(), "the same columns");
    for ((table, column), (old_type, old_null, _)) in &before.columns {
        let (new_type, new_null, _) = &columns_after[&(table.clone(), column.clone())];
        assert_eq!(new_type, &native_type(table, column, old_type), "{table}.{column} (was {old_type})");
        assert_eq!(new_null, old_null, "{table}.{column} keeps its nullability");
    }
    let integers: std::collections::BTreeSet<String> = after
        .columns
        .iter()
        .filter(|(_, (ty, _, _))| ty == "integer" || ty == "bigint")
        .map(|((t, c), _)| format!("{t}.{c}"))
        .collect();
    assert_eq!(integers, INTEGERS.iter().map(|c| (*c).to_owned()).collect(), "only counters stay integers");
    let default = |table: &str, column: &str| after.columns[&(table.to_owned(), column.to_owned())].2.clone();
    assert_eq!(default("users", "mail_new_photos").as_deref(), Some("true"));
    assert_eq!(default("users", "mail_comments").as_deref(), Some("true"));
    assert_eq!(default("users", "mail_status_changes").as_deref(), Some("false"));
    assert_eq!(default("projects", "thumbnail_pinned").as_deref(), Some("false"));
    assert_eq!(default("notifications", "mail_pending").as_deref(), Some("false"));
    assert_eq!(default("users", "role").as_deref(), Some("'homeowner'::text"));
    // Keys (primary, unique, foreign with their ON DELETE), checks and indexes, unchanged
    // (in one order: the renames above moved some).
    for side in [&mut after, &mut before] {
        side.constraints.sort();
        side.indexes.sort();
    }
    assert_eq!(after.constraints, before.constraints);
    assert_eq!(after.indexes, before.indexes);
    let foreign_keys = after.constraints.iter().filter(|c| c.2.starts_with("FOREIGN KEY")).count();
    // 0014's new keys are set aside above; projects.builder_id's went with the column.
    assert_eq!(foreign_keys, 28, "{:#?}", after.constraints);

    // ---- 4. Every row, through the store.
    for want in [&u.admin, &u.builder, &u.homeowner, &u.invited] {
        assert_eq!(users::find_by_id(&store, &want.id).await.unwrap().as_ref(), Some(want));
        assert_eq!(users::find_by_email(&store, &want.email).await.unwrap().as_ref(), Some(want));
        let (new_photos, comments, status_changes) = mail_flags(&want.id);
        assert_eq!(
            users::mail_preferences(&store, &want.id).await.unwrap(),
            Some(MailPreferencesRow {
                new_photos,
                comments,
                status_changes,
                changed_at: None,
                push_new_photos: true,
                push_comments: true,
                push_status_changes: true
            }),
            "{}",
            want.email
        );
    }

    assert_eq!(
        sessions::find_by_token_hash(&store, SESSION_HASH).await.unwrap(),
        Some(SessionRow { id: SESSION.into(), user_id: HOMEOWNER.into(), created_at: T, last_seen_at: T + 61_234, expires_at: T + 2_592_000_007, factor_at: None, factor_kind: None, enrol_required: false })
    );
    assert_eq!(
        sessions::find_by_token_hash(&store, SESSION_ADMIN_HASH).await.unwrap(),
        Some(SessionRow { id: SESSION_ADMIN.into(), user_id: ADMIN.into(), created_at: DST - 5, last_seen_at: DST, expires_at: FAR, factor_at: None, factor_kind: None, enrol_required: false })
    );
    let extras: Vec<(String, Option<String>, Option<String>)> =
        sqlx::query_as("SELECT token_hash, user_agent, ip FROM sessions ORDER BY token_hash").fetch_all(&pg).await.unwrap();
    assert_eq!(
        extras,
        vec![
            (SESSION_ADMIN_HASH.into(), None, Some("2001:db8::1".into())),
            (SESSION_HASH.into(), Some("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X)".into()), Some("203.0.113.7".into())),
        ]
    );

    assert_eq!(
        tokens::find(&store, TOKEN_INVITE).await.unwrap(),
        Some(TokenRow { user_id: INVITED.into(), kind: TokenKind::Invite, expires_at: T + 604_800_006, used_at: None })
    );
    assert_eq!(
        tokens::find(&store, TOKEN_RESET).await.unwrap(),
        Some(TokenRow { user_id: HOMEOWNER.into(), kind: TokenKind::Reset, expires_at: T - 1, used_at: Some(T - 1_800_013) })
    );
    assert_eq!(
        tokens::find(&store, TOKEN_CONFIRM).await.unwrap(),
        Some(TokenRow { user_id: BUILDER.into(), kind: TokenKind::ConfirmEmail, expires_at: T - 7_913_600_019, used_at: Some(T - 7_000_000_017) })
    );
    let created: Vec<(String, OffsetDateTime)> =
        sqlx::query_as("SELECT token_hash, created_at FROM auth_tokens ORDER BY created_at").fetch_all(&pg).await.unwrap();
    assert_eq!(
        created.into_iter().map(|(h, t)| (h, ms(t))).collect::<Vec<_>>(),
        vec![(TOKEN_CONFIRM.into(), T - 8_000_000_019), (TOKEN_RESET.into(), T - 3_600_001), (TOKEN_INVITE.into(), T + 6)]
    );

    let (project, project_2) = project_rows(&u);
    assert_eq!(projects::find(&store, PROJECT).await.unwrap(), Some(project.clone()));
    assert_eq!(projects::find(&store, PROJECT_2).await.unwrap(), Some(project_2.clone()));

    for want in image_rows() {
        assert_eq!(images::find(&store, &want.id).await.unwrap(), Some(want));
    }
    assert_eq!(images::favourite_ids(&store, HOMEOWNER, PROJECT).await.unwrap(), vec![PHOTO_1.to_owned()]);
    assert_eq!(images::favourite_ids(&store, BUILDER, PROJECT).await.unwrap(), vec![PHOTO_2.to_owned()]);
    assert_eq!(images::favourite_ids(&store, INVITED, PROJECT_2).await.unwrap(), vec![PHOTO_3.to_owned()]);
    let favourites: Vec<(String, String, String, String, OffsetDateTime)> = sqlx::query_as(
        "SELECT id::text, user_id::text, image_id::text, project_id::text, created_at FROM user_favourites ORDER BY id",
    )
    .fetch_all(&pg)
    .await
    .unwrap();
    assert_eq!(
        favourites.into_iter().map(|(a, b, c, d, t)| (a, b, c, d, ms(t))).collect::<Vec<_>>(),
        vec![
            (FAVOURITE_1.into(), HOMEOWNER.into(), PHOTO_1.into(), PROJECT.into(), T + 5_003),
            (FAVOURITE_2.into(), BUILDER.into(), PHOTO_2.into(), PROJECT.into(), T + 5_004),
            (FAVOURITE_3.into(), INVITED.into(), PHOTO_3.into(), PROJECT_2.into(), T + 5_005),
        ]
    );

    let comment_rows = comment_rows(&u);
    for want in &comment_rows {
        assert_eq!(comments::find(&store, &want.id).await.unwrap().as_ref(), Some(want));
    }
    assert_eq!(comments::list_for_image(&store, PHOTO_1).await.unwrap(), comment_rows);

    for (want, pending) in notification_rows() {
        assert_eq!(notifications::find(&store, &want.id).await.unwrap().as_ref(), Some(&want));
        let stored: bool = sqlx::query_scalar("SELECT mail_pending FROM notifications WHERE id = $1::uuid").bind(&want.id).fetch_one(&pg).await.unwrap();
        assert_eq!(stored, pending, "{}", want.id);
    }
    assert_eq!(notifications::unread_count(&store, HOMEOWNER).await.unwrap(), 1);
    let pending = notifications::digest_pending(&store, HOMEOWNER).await.unwrap();
    assert_eq!(pending.iter().map(|n| n.id.as_str()).collect::<Vec<_>>(), [NOTE_COMMENT]);
    assert_eq!(notifications::digest_due(&store, T + 3_001).await.unwrap(), Vec::<String>::new());
    assert_eq!(notifications::digest_due(&store, T + 3_002).await.unwrap(), vec![HOMEOWNER.to_owned()]);

    let activity_rows = activity_rows();
    for (want, detail) in &activity_rows {
        let got = activity::find(&store, &want.id).await.unwrap().expect("timeline entry kept");
        assert_eq!(json(&got.detail), json(&want.detail), "{}: the same JSON", want.id);
        assert_eq!(&serde_json::from_str::<TimelineDetail>(&got.detail).unwrap(), detail, "{}", want.id);
        assert_eq!(ActivityRow { detail: want.detail.clone(), ..got }, *want);
    }
    let page = activity::page(&store, PROJECT, None, 50).await.unwrap();
    assert_eq!(
        page.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(),
        [ACT_PROGRESS, ACT_COMMENT, ACT_PHOTOS, ACT_CREATED, ACT_MILESTONE],
        "newest first"
    );

    assert_eq!(milestones::list(&store, PROJECT).await.unwrap(), milestone_rows()[..3]);
    for want in milestone_rows() {
        assert_eq!(milestones::find(&store, &want.id).await.unwrap(), Some(want));
    }

    for want in batch_rows() {
        assert_eq!(uploads::find_batch(&store, &want.id).await.unwrap(), Some(want));
    }
    for want in upload_rows() {
        assert_eq!(uploads::find(&store, &want.id).await.unwrap(), Some(want));
    }
    assert_eq!(uploads::count_open(&store, BUILDER).await.unwrap(), 1);
    assert_eq!(uploads::count_in_batch(&store, BATCH).await.unwrap(), 2);
    let expired = uploads::expired(&store, T + 86_401_018).await.unwrap();
    assert_eq!(expired.iter().map(|x| x.id.as_str()).collect::<Vec<_>>(), [UPLOAD_STORED], "expiry to the millisecond");

    let links = guest_link_rows(&u);
    for want in &links {
        assert_eq!(guest_links::find(&store, &want.id).await.unwrap().as_ref(), Some(want));
    }
    assert_eq!(guest_links::find_by_token(&store, LINK_2_HASH).await.unwrap().as_ref(), Some(&links[1]));
    let mut listed = guest_links::list_for_project(&store, PROJECT, None).await.unwrap();
    listed.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(listed, links);

    assert_eq!(
        keys::get_or_create(&store, "unsubscribe", "a-fresh-key-would-be-wrong").await.unwrap(),
        "k3y_b64url-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    );

    // The mail queue: due times and the lease compared to the millisecond.
    assert_eq!(outbox::pending(&store).await.unwrap(), OutboxPending { mail: 2, push: 0 });
    assert_eq!(outbox::next_due_at(&store, OutboxKind::Mail).await.unwrap(), Some(T + 200_003));
    assert_eq!(outbox::due_ids(&store, OutboxKind::Mail, T + 200_002, 10).await.unwrap(), Vec::<String>::new());
    assert_eq!(outbox::due_ids(&store, OutboxKind::Mail, T + 360_018, 10).await.unwrap(), vec![MAIL_DUE.to_owned()], "leased until T + 360_019");
    assert_eq!(outbox::due_ids(&store, OutboxKind::Mail, T + 360_019, 10).await.unwrap(), vec![MAIL_DUE.to_owned(), MAIL_LEASED.to_owned()]);
    let queue: Vec<(String, String, i32, OffsetDateTime, OffsetDateTime, Option<OffsetDateTime>, Option<OffsetDateTime>, Option<String>)> = sqlx::query_as(
        "SELECT id::text, to_address, attempts, created_at, next_attempt_at, claimed_until, sent_at, last_error FROM outbox WHERE kind = 'mail' ORDER BY id",
    )
    .fetch_all(&pg)
    .await
    .unwrap();
    assert_eq!(
        queue.into_iter().map(|(id, to, n, c, next, claim, sent, err)| (id, to, n, ms(c), ms(next), opt_ms(claim), opt_ms(sent), err)).collect::<Vec<_>>(),
        vec![
            (MAIL_LEASED.into(), format!("{MAIL_LEASED}@example.com"), 2, T + 3, T + 300_017, Some(T + 360_019), None, Some("450 4.2.0 mailbox busy".into())),
            (MAIL_SENT.into(), format!("{MAIL_SENT}@example.com"), 1, T + 3, T + 5, None, Some(T + 7_001), None),
            (MAIL_DUE.into(), format!("{MAIL_DUE}@example.com"), 0, T + 3, T + 200_003, None, None, None),
        ]
    );
    assert_eq!(outbox::claim(&store, MAIL_SENT, T + 360_019, T + 420_000).await.unwrap(), None, "sent mail is not sent again");
    assert_eq!(
        outbox::claim(&store, MAIL_LEASED, T + 360_019, T + 420_000).await.unwrap(),
        Some(OutboxRow {
            id: MAIL_LEASED.into(),
            attempts: 3,
            message: Queued::Mail(QueuedMail {
                to_address: format!("{MAIL_LEASED}@example.com"),
                subject: format!("Subject of {MAIL_LEASED}"),
                body_text: format!("Text of {MAIL_LEASED}\n"),
                body_html: format!("<p>HTML of {MAIL_LEASED}</p>"),
                list_unsubscribe: Some("<https://sitecast.test/api/unsubscribe?t=abc.def>".into()),
                attachment_key: None,
                attachment_name: None,
                attachment_type: None,
            }),
        })
    );

    // The login limiter's window, to the millisecond: one more attempt inside it counts
    // on, and giving it back finds the window by its exact end.
    assert_eq!(
        login_failures::count_attempt(&store, LIMITED_KEY, T + 900_320, 900_000).await.unwrap(),
        Window { attempts: 4, ends_at: T + 900_321 }
    );
    login_failures::give_back(&store, LIMITED_KEY, T + 900_321).await.unwrap();
    let window: (i64, OffsetDateTime) =
        sqlx::query_as("SELECT attempts, window_ends_at FROM login_failures WHERE key_hash = $1").bind(LIMITED_KEY).fetch_one(&pg).await.unwrap();
    assert_eq!((window.0, ms(window.1)), (3, T + 900_321));

    // ---- 5. The tables the store only writes, with SQL.
    let logs: Vec<(String, Option<String>, String, String, Option<String>, Option<String>, Option<String>, OffsetDateTime)> = sqlx::query_as(
        "SELECT id::text, user_id::text, level, message, data::text, jsonb_typeof(data), data #>> '{}', created_at FROM logs ORDER BY created_at",
    )
    .fetch_all(&pg)
    .await
    .unwrap();
    assert_eq!(logs.len(), LOGS.len());
    for (i, ((id, user, level, message, data, kind, text, created), want)) in logs.into_iter().zip(LOGS).enumerate() {
        assert_eq!((id.as_str(), user.as_deref(), level.as_str(), message.as_str()), (want.0, want.1, want.2, want.3));
        assert_eq!(ms(created), T + 7_000 + i64::try_from(i).unwrap());
        match (want.4, want.0) {
            (None, _) => assert_eq!(data, None, "no data stays NULL"),
            (Some(old), LOG_JSON) => assert_eq!(json(&data.unwrap()), json(old), "JSON kept as JSON"),
            (Some(old), _) => {
                // Not JSON: kept as a JSON string holding the text unchanged.
                assert_eq!(kind.as_deref(), Some("string"));
                assert_eq!(text.as_deref(), Some(old));
            }
        }
    }

    let contact: (String, String, String, Option<String>, String, OffsetDateTime) =
        sqlx::query_as("SELECT id::text, name, email, phone, message, created_at FROM contact_messages").fetch_one(&pg).await.unwrap();
    assert_eq!(
        (contact.0.as_str(), contact.1.as_str(), contact.2.as_str(), contact.3, contact.4.as_str(), ms(contact.5)),
        (CONTACT, "Zoë Client", "zoe@example.com", None, "Hi,\nDo you build decks?\n— Zoë", T + 8_009)
    );

    // ---- 6. The upgraded schema at work: defaults, SET NULL and cascades.
    users::insert(
        &store,
        &NewUser {
            id: "01933b00-0000-7000-8000-000000000099",
            email: "new@example.com",
            role: Role::Homeowner,
            name: None,
            first_name: None,
            last_name: None,
            phone: None,
            builder_id: Some(BUILDER),
            password_hash: None,
            email_confirmed_at: None,
            now: T + 10_000_007,
        },
    )
    .await
    .unwrap();
    assert_eq!(
        users::mail_preferences(&store, "01933b00-0000-7000-8000-000000000099").await.unwrap(),
        Some(MailPreferencesRow {
            new_photos: true,
            comments: true,
            status_changes: false,
            changed_at: None,
            push_new_photos: true,
            push_comments: true,
            push_status_changes: true
        })
    );
    assert!(users::delete(&store, "01933b00-0000-7000-8000-000000000099").await.unwrap());

    // ON DELETE SET NULL: a milestone's photos stay, untagged; a deleted thumbnail
    // leaves the project without one; a deleted admin leaves their photos, log entries
    // and timeline entries anonymous.
    assert!(milestones::delete(&store, MILESTONE_1).await.unwrap());
    assert_eq!(images::find(&store, PHOTO_1).await.unwrap().unwrap().milestone_id, None);
    assert!(images::delete(&store, PHOTO_2).await.unwrap());
    let p = projects::find(&store, PROJECT).await.unwrap().unwrap();
    assert_eq!((p.thumbnail_image_id, p.thumbnail_pinned), (None, true));
    assert_eq!(ids_left(&pg).await["user_favourites"], [FAVOURITE_1, FAVOURITE_3], "a photo's favourites go with it");
    assert!(users::delete(&store, ADMIN).await.unwrap());
    assert_eq!(images::find(&store, PHOTO_1).await.unwrap().unwrap().uploaded_by, None);
    let created = activity::find(&store, ACT_CREATED).await.unwrap().unwrap();
    assert_eq!((created.actor_id, created.actor_name.as_deref()), (None, Some("Ada Admin")));
    let log_user: Option<String> = sqlx::query_scalar("SELECT user_id::text FROM logs WHERE id = $1::uuid").bind(LOG_TEXT).fetch_one(&pg).await.unwrap();
    assert_eq!(log_user, None);
    assert_eq!(sessions::find_by_token_hash(&store, SESSION_ADMIN_HASH).await.unwrap(), None, "sessions go with their user");

    // ON DELETE CASCADE: the homeowner takes their project and all of it along.
    assert!(users::delete(&store, HOMEOWNER).await.unwrap());
    assert_eq!(projects::find(&store, PROJECT).await.unwrap(), None);
    // Photos, favourites, comments, notifications, the timeline, milestones, visits,
    // uploads, guest links and sessions all went; the other homeowner's kept theirs.
    assert_eq!(
        ids_left(&pg).await,
        expect_left(&[
            ("milestones", &[MILESTONE_P2]),
            ("notifications", &[NOTE_PHOTOS]),
            ("project_images", &[PHOTO_3]),
            ("projects", &[PROJECT_2]),
            ("user_favourites", &[FAVOURITE_3]),
            ("users", &[BUILDER, INVITED]),
        ])
    );
    assert_eq!(tokens::find(&store, TOKEN_RESET).await.unwrap(), None);

    // users.builder_id is SET NULL; a builder's projects go with them (CASCADE).
    assert!(users::delete(&store, BUILDER).await.unwrap());
    assert_eq!(users::find_by_id(&store, INVITED).await.unwrap().unwrap().builder_id, None);
    assert_eq!(projects::find(&store, PROJECT_2).await.unwrap(), Some(project_2), "not the builder's project");

    store.close().await;
    db.cleanup().await;
}

/// Upload batch ids were chosen by the client in the last release (1–64 letters, digits
/// and dashes): the web app's fallback where `crypto.randomUUID` is missing (a page served
/// over plain HTTP) makes ids like `193a1e4f2b3-9c4d5e6f7a8b9`, the photo load test
/// `load-…`. Such a database must still upgrade, each visit's photos, uploads, batch row
/// and timeline entry still naming one batch, and no two visits merged.
#[actix_web::test]
async fn batch_ids_that_are_not_uuids_survive_the_upgrade() {
    let Some(db) = postgres_database().await else { return };
    let old = old_release_database(&db.url).await;
    sqlx::raw_sql(
        "INSERT INTO users (id, email, role, created_at, updated_at) \
           VALUES ('a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 'bob@builders.example', 'builder', 1732469812345, 1732469812345), \
                  ('0192f3a4-b5c6-7d8e-9f01-23456789abcd', 'hana@example.org', 'homeowner', 1732469812345, 1732469812345); \
         INSERT INTO projects (id, title, address, homeowner_id, builder_id, created_at, updated_at) \
           VALUES ('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'Kitchen', '12 Elm St', '0192f3a4-b5c6-7d8e-9f01-23456789abcd', \
                   'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 1732469812345, 1732469812345); \
         INSERT INTO upload_batches (id, project_id, user_id, note, file_count, finished, stored, created_at, completed_at) VALUES \
           ('load-1f3a9c0e77', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 'load visit', 2, 2, 2, 1732469813001, 1732469813019), \
           ('193a1e4f2b3-9c4d5e6f7a8b9', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 'http visit', 1, 1, 1, 1732469814001, 1732469814019), \
           ('01933a1d-0000-7000-8000-00000000b001', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', NULL, 1, 1, 1, 1732469815001, 1732469815019); \
         INSERT INTO project_images (id, project_id, uploaded_by, original_name, content_type, byte_size, width, height, storage_key, \
                                     created_at, updated_at, batch_id, visit_note) VALUES \
           ('01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e01', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 'a.jpg', 'image/jpeg', 1, 1, 1, 'k1', 1732469813018, 1732469813018, 'load-1f3a9c0e77', 'load visit'), \
           ('01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e02', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 'b.jpg', 'image/jpeg', 1, 1, 1, 'k2', 1732469813019, 1732469813019, 'load-1f3a9c0e77', 'load visit'), \
           ('01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e03', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 'c.jpg', 'image/jpeg', 1, 1, 1, 'k3', 1732469814019, 1732469814019, '193a1e4f2b3-9c4d5e6f7a8b9', 'http visit'), \
           ('01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e04', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 'd.jpg', 'image/jpeg', 1, 1, 1, 'k4', 1732469815019, 1732469815019, '01933a1d-0000-7000-8000-00000000b001', NULL); \
         INSERT INTO uploads (id, project_id, user_id, batch_id, file_name, length, created_at, expires_at, finished_at, photo_id) VALUES \
           ('8f14e45f-ceea-467f-a0e6-6c1b1c8b0e01', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 'load-1f3a9c0e77', 'b.jpg', 1, 1732469813002, 1732556213019, 1732469813019, '01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e02'), \
           ('8f14e45f-ceea-467f-a0e6-6c1b1c8b0e02', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', '193a1e4f2b3-9c4d5e6f7a8b9', 'c.jpg', 1, 1732469814002, 1732556214019, 1732469814019, '01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e03'); \
         INSERT INTO project_activity (id, project_id, actor_id, actor_name, actor_role, kind, detail, subject_id, created_at) VALUES \
           ('01933a00-aaaa-7bbb-8ccc-dddddddd0001', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 'Bob', 'builder', 'photos_added', \
            '{\"type\":\"photos_added\",\"count\":2,\"photos\":[],\"note\":\"load visit\"}', 'load-1f3a9c0e77', 1732469813019), \
           ('01933a00-aaaa-7bbb-8ccc-dddddddd0002', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'a3e9b0d2-7c41-4e5a-8b6f-0123456789ab', 'Bob', 'builder', 'photos_added', \
            '{\"type\":\"photos_added\",\"count\":1,\"photos\":[],\"note\":\"http visit\"}', '193a1e4f2b3-9c4d5e6f7a8b9', 1732469814019);",
    )
    .execute(&old)
    .await
    .unwrap();
    let counts = row_counts(&old).await;
    old.close().await;

    let store = Store::open(&db.url, None, true).await.expect("the old database upgrades");
    let pg = store.postgres_pool().expect("a Postgres store").clone();
    assert_eq!(row_counts(&pg).await, counts, "no row lost or added");
    async fn batch_of(store: &Store, photo: &str) -> String {
        images::find(store, photo).await.unwrap().expect("photo kept").batch_id.expect("photo keeps its visit")
    }
    let load = batch_of(&store, "01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e01").await;
    let http = batch_of(&store, "01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e03").await;
    assert_eq!(batch_of(&store, "01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e02").await, load, "one visit's photos stay together");
    assert_ne!(load, http, "two visits stay two");
    assert_eq!(batch_of(&store, "01933a1e-4f2b-7c3d-8e4f-5a6b7c8d9e04").await, "01933a1d-0000-7000-8000-00000000b001");
    for (batch, note, upload, entry) in [
        (&load, "load visit", "8f14e45f-ceea-467f-a0e6-6c1b1c8b0e01", "01933a00-aaaa-7bbb-8ccc-dddddddd0001"),
        (&http, "http visit", "8f14e45f-ceea-467f-a0e6-6c1b1c8b0e02", "01933a00-aaaa-7bbb-8ccc-dddddddd0002"),
    ] {
        let row = uploads::find_batch(&store, batch).await.unwrap().expect("the visit's batch row is found by the id its photos name");
        assert_eq!(row.note.as_deref(), Some(note));
        assert_eq!(uploads::find(&store, upload).await.unwrap().unwrap().batch_id.as_ref(), Some(batch));
        assert_eq!(activity::find(&store, entry).await.unwrap().unwrap().subject_id.as_ref(), Some(batch), "the timeline entry goes with its visit");
    }
    store.close().await;
    db.cleanup().await;
}

/// The last release took any day that exists as `YYYY-MM-DD` (`milestones::parse_date`),
/// year 0000 included. Postgres stores that day (as 1 BC, which is what sqlx writes for
/// year 0) but its text input refuses it: `'0000-06-15'::date` fails, while
/// `to_date('0000-06-15', 'YYYY-MM-DD')` reads it.
#[actix_web::test]
async fn a_milestone_dated_in_year_0000_survives_the_upgrade() {
    let Some(db) = postgres_database().await else { return };
    let old = old_release_database(&db.url).await;
    sqlx::raw_sql(
        "INSERT INTO users (id, email, role, created_at, updated_at) \
           VALUES ('0192f3a4-b5c6-7d8e-9f01-23456789abcd', 'hana@example.org', 'homeowner', 1732469812345, 1732469812345); \
         INSERT INTO projects (id, title, address, homeowner_id, created_at, updated_at) \
           VALUES ('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'Kitchen', '12 Elm St', '0192f3a4-b5c6-7d8e-9f01-23456789abcd', 1732469812345, 1732469812345); \
         INSERT INTO milestones (id, project_id, name, position, target_date, done_date, created_at, updated_at) \
           VALUES ('2c1d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'Typo', 0, '0000-06-15', '0000-02-29', \
                   1732469812346, 1732469812347);",
    )
    .execute(&old)
    .await
    .unwrap();
    old.close().await;

    let store = Store::open(&db.url, None, true).await.expect("the old database upgrades");
    let m = milestones::find(&store, "2c1d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f").await.unwrap().expect("milestone kept");
    assert_eq!((m.target_date.as_deref(), m.done_date.as_deref()), (Some("0000-06-15"), Some("0000-02-29")));
    store.close().await;
    db.cleanup().await;
}
