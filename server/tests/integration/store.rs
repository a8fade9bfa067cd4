//! The store suite: one body per test, run on SQLite and on Postgres.

use protocol::{ImageCategory, ProgressMode, ProjectStatus, Role};
use sitecast::store::images::ImageRow;
use sitecast::store::projects::{ProjectFields, ProjectScope};
use sitecast::store::users::NewUser;
use sitecast::store::login_failures::{self, Window};
use sitecast::store::outbox::{OutboxKind, OutboxPending, OutboxRow, Queued, QueuedMail, QueuedPush};
use sitecast::store::{companies, images, new_id, outbox, projects, push, sessions, tokens, users, Store, StoreError};

use crate::support::{for_each_backend, TestSql};

async fn user(store: &Store, email: &str, role: Role) -> String {
    let id = new_id();
    users::insert(
        store.pool(),
        &NewUser {
            id: &id,
            email,
            role,
            name: Some("Test Person"),
            first_name: Some("Test"),
            last_name: Some("Person"),
            phone: None,
            builder_id: None,
            password_hash: Some("hash"),
            email_confirmed_at: Some(1),
            now: 1_000,
        },
    )
    .await
    .unwrap();
    // A builder owns a company of their own, which keeps their id (as 0014 migrates them).
    if role == Role::Builder {
        companies::insert(store.pool(), &id, "Test Builders", 1_000).await.unwrap();
        users::set_membership(store.pool(), &id, Some((&id, protocol::CompanyRole::Owner, false)), 1_000).await.unwrap();
    }
    id
}

async fn project(store: &Store, title: &str, homeowner: &str, builder: Option<&str>, updated: i64) -> String {
    let id = new_id();
    projects::insert(
        store.pool(),
        &id,
        &ProjectFields {
            title,
            description: "",
            address: "1 Main St",
            homeowner_id: homeowner,
            company_id: builder,
            status: ProjectStatus::InProgress,
            progress: 0,
            thumbnail_image_id: None,
            thumbnail_pinned: false,
            progress_mode: ProgressMode::Manual,
        },
        updated,
    )
    .await
    .unwrap();
    id
}

fn image(project_id: &str, created: i64) -> ImageRow {
    ImageRow {
        id: new_id(),
        project_id: project_id.to_owned(),
        uploaded_by: None,
        category: ImageCategory::Other,
        caption: Some("c".into()),
        original_name: "a.jpg".into(),
        content_type: "image/jpeg".into(),
        byte_size: 10,
        width: 4,
        height: 3,
        taken_at: None,
        storage_key: format!("projects/{project_id}/x"),
        created_at: created,
        updated_at: created,
        version: 1,
        comment_count: 0,
        visit_note: None,
        batch_id: None,
        milestone_id: None,
        markup_count: 0,
        tags: vec![],
        location: None,
        uploader: None,
    }
}

#[actix_web::test]
async fn users_are_unique_by_email_and_found_by_id() {
    for_each_backend(|db| async move {
        let store = Store::connect(&db.url).await.unwrap();
        let id = user(&store, "ana@example.com", Role::Homeowner).await;
        let found = users::find_by_email(store.pool(), "ana@example.com").await.unwrap().unwrap();
        assert_eq!((found.id.as_str(), found.role, found.version), (id.as_str(), Role::Homeowner, 1));
        assert_eq!(users::find_by_id(store.pool(), &id).await.unwrap().unwrap().email, "ana@example.com");
        assert!(users::find_by_id(store.pool(), "nope").await.unwrap().is_none());
        let dup = users::insert(
            store.pool(),
            &NewUser {
                id: &new_id(),
                email: "ana@example.com",
                role: Role::Builder,
                name: None,
                first_name: None,
                last_name: None,
                phone: None,
                builder_id: None,
                password_hash: None,
                email_confirmed_at: None,
                now: 1,
            },
        )
        .await;
        assert!(matches!(dup, Err(StoreError::UniqueViolation)), "got {dup:?}");
        users::set_password(store.pool(), &id, "new-hash", 5_000).await.unwrap();
        let after = users::find_by_id(store.pool(), &id).await.unwrap().unwrap();
        assert_eq!((after.password_hash.as_deref(), after.version), (Some("new-hash"), 2));
        assert_eq!(after.email_confirmed_at, Some(1), "an existing confirmation is kept");
        // A bad role never reaches the table.
        let bad = TestSql::per_backend("UPDATE users SET role = 'superuser' WHERE id = $1", "UPDATE users SET role = 'superuser' WHERE id = $1::uuid")
            .bind(&id)
            .execute(store.pool())
            .await;
        assert!(bad.is_err());
        store.close().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn migrations_run_once_and_reconnect_keeps_data() {
    for_each_backend(|db| async move {
        let store = Store::connect(&db.url).await.unwrap();
        user(&store, "keep@example.com", Role::Admin).await;
        store.close().await;
        let again = Store::connect(&db.url).await.unwrap();
        assert_eq!(users::count(again.pool()).await.unwrap(), 1);
        again.close().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn sessions_are_found_by_hash_and_end_per_user() {
    for_each_backend(|db| async move {
        let store = Store::connect(&db.url).await.unwrap();
        let uid = user(&store, "s@example.com", Role::Builder).await;
        let (s1, s2) = (new_id(), new_id());
        for (id, hash) in [(s1.as_str(), "h1"), (s2.as_str(), "h2")] {
            sessions::insert(
                store.pool(),
                &sessions::NewSession {
                    id,
                    user_id: &uid,
                    token_hash: hash,
                    now: 10,
                    expires_at: 100,
                    user_agent: Some("test"),
                    ip: Some("127.0.0.1"),
                },
            )
            .await
            .unwrap();
        }
        let s = sessions::find_by_token_hash(store.pool(), "h1").await.unwrap().unwrap();
        assert_eq!((s.id.as_str(), s.user_id.as_str(), s.expires_at), (s1.as_str(), uid.as_str(), 100));
        sessions::touch(store.pool(), &s1, 50).await.unwrap();
        assert_eq!(sessions::find_by_token_hash(store.pool(), "h1").await.unwrap().unwrap().last_seen_at, 50);
        assert!(sessions::delete(store.pool(), &s1).await.unwrap());
        assert!(!sessions::delete(store.pool(), &s1).await.unwrap());
        assert_eq!(sessions::delete_for_user(store.pool(), &uid).await.unwrap(), vec![s2]);
        assert!(sessions::find_by_token_hash(store.pool(), "h2").await.unwrap().is_none());
        store.close().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn one_time_tokens_are_consumed_once_and_expire() {
    for_each_backend(|db| async move {
        let store = Store::connect(&db.url).await.unwrap();
        let uid = user(&store, "t@example.com", Role::Homeowner).await;
        tokens::insert(store.pool(), "live", &uid, "reset", 0, 1_000).await.unwrap();
        tokens::insert(store.pool(), "old", &uid, "reset", 0, 10).await.unwrap();
        tokens::insert(store.pool(), "other", &uid, "invite", 0, 1_000).await.unwrap();
        assert!(!tokens::consume(store.pool(), "old", 500).await.unwrap(), "expired");
        assert!(tokens::consume(store.pool(), "live", 500).await.unwrap());
        assert!(!tokens::consume(store.pool(), "live", 501).await.unwrap(), "reused");
        tokens::void_for_user(store.pool(), &uid, 600).await.unwrap();
        assert!(!tokens::consume(store.pool(), "other", 601).await.unwrap(), "voided");
        assert_eq!(tokens::find(store.pool(), "other").await.unwrap().unwrap().used_at, Some(600));
        let bad = tokens::insert(store.pool(), "k", &uid, "magic", 0, 1).await;
        assert!(bad.is_err(), "token kinds are constrained");
        store.close().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn login_attempts_count_in_fixed_windows() {
    for_each_backend(|db| async move {
        let store = Store::connect(&db.url).await.unwrap();
        let pool = store.pool();
        let count = |key: &'static str, now: i64| login_failures::count_attempt(pool, key, now, 100);
        assert_eq!(count("a", 1_000).await.unwrap(), Window { attempts: 1, ends_at: 1_100 }, "a first attempt opens a window");
        assert_eq!(count("a", 1_050).await.unwrap(), Window { attempts: 2, ends_at: 1_100 }, "later ones count into it");
        assert_eq!(count("b", 1_050).await.unwrap(), Window { attempts: 1, ends_at: 1_150 }, "keys are independent");
        assert_eq!(count("a", 1_100).await.unwrap(), Window { attempts: 1, ends_at: 1_200 }, "an ended window starts afresh");

        // Giving an attempt back only touches the window it was counted in.
        login_failures::give_back(pool, "a", 1_100).await.unwrap();
        assert_eq!(count("a", 1_150).await.unwrap().attempts, 2, "a stale window's give-back changes nothing");
        login_failures::give_back(pool, "a", 1_200).await.unwrap();
        login_failures::give_back(pool, "a", 1_200).await.unwrap();
        login_failures::give_back(pool, "a", 1_200).await.unwrap();
        assert_eq!(count("a", 1_150).await.unwrap().attempts, 1, "never below zero");

        login_failures::clear(pool, "a").await.unwrap();
        assert_eq!(count("a", 1_160).await.unwrap(), Window { attempts: 1, ends_at: 1_260 });
        assert_eq!(login_failures::delete_expired(pool, 1_200).await.unwrap(), 1, "b's window ended at 1150");
        assert_eq!(count("b", 1_200).await.unwrap(), Window { attempts: 1, ends_at: 1_300 });
        store.close().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn projects_are_scoped_ordered_and_joined_with_names() {
    for_each_backend(|db| async move {
        let store = Store::connect(&db.url).await.unwrap();
        let h1 = user(&store, "h1@example.com", Role::Homeowner).await;
        let h2 = user(&store, "h2@example.com", Role::Homeowner).await;
        let b = user(&store, "b@example.com", Role::Builder).await;
        let old = project(&store, "Old", &h1, Some(&b), 100).await;
        let new = project(&store, "New", &h1, None, 300).await;
        let other = project(&store, "Other", &h2, Some(&b), 200).await;

        let titles = |rows: Vec<projects::ProjectRow>| rows.into_iter().map(|p| p.title).collect::<Vec<_>>();
        assert_eq!(titles(projects::list(store.pool(), &ProjectScope::All).await.unwrap()), ["New", "Other", "Old"]);
        assert_eq!(
            titles(projects::list(store.pool(), &ProjectScope::Homeowner(h1.clone())).await.unwrap()),
            ["New", "Old"]
        );
        let company = |crew_of: Option<&str>| ProjectScope::Company { company_id: b.clone(), crew_of: crew_of.map(str::to_owned) };
        assert_eq!(titles(projects::list(store.pool(), &company(None)).await.unwrap()), ["Other", "Old"]);
        assert!(projects::list(store.pool(), &ProjectScope::Nothing).await.unwrap().is_empty());

        // A crew member of the company sees the projects they are on.
        let k = user(&store, "k@example.com", Role::Builder).await;
        users::set_membership(store.pool(), &k, Some((&b, protocol::CompanyRole::Crew, false)), 1_500).await.unwrap();
        assert!(projects::list(store.pool(), &company(Some(&k))).await.unwrap().is_empty());
        projects::set_crew(store.pool(), &old, std::slice::from_ref(&k), 1_600).await.unwrap();
        assert_eq!(titles(projects::list(store.pool(), &company(Some(&k))).await.unwrap()), ["Old"]);
        assert_eq!(projects::ids_in_scope(store.pool(), &company(Some(&k))).await.unwrap(), std::slice::from_ref(&old));
        assert_eq!(users::members_of(store.pool(), &b).await.unwrap().iter().map(|u| u.id.clone()).collect::<Vec<_>>(), [b.clone(), k.clone()]);
        // Leaving the company takes them off its crews.
        users::set_membership(store.pool(), &k, None, 1_700).await.unwrap();
        assert!(projects::find(store.pool(), &old).await.unwrap().unwrap().crew.is_empty());
        assert_eq!(users::find_by_id(store.pool(), &k).await.unwrap().unwrap().company_id, None);

        let row = projects::find(store.pool(), &old).await.unwrap().unwrap();
        assert_eq!(row.homeowner_first_name.as_deref(), Some("Test"));
        assert_eq!(row.company_name.as_deref(), Some("Test Builders"));
        assert!(projects::find(store.pool(), &new).await.unwrap().unwrap().company_name.is_none());
        assert_eq!(projects::count_for_homeowner(store.pool(), &h1).await.unwrap(), 2);

        let img = image(&other, 50);
        images::insert(store.pool(), &img).await.unwrap();
        projects::set_thumbnail(store.pool(), &other, Some(&img.id), 400).await.unwrap();
        let row = projects::find(store.pool(), &other).await.unwrap().unwrap();
        assert_eq!((row.thumbnail_image_id.as_deref(), row.updated_at, row.version), (Some(img.id.as_str()), 400, 2));
        let bad = TestSql::per_backend("UPDATE projects SET progress = 101 WHERE id = $1", "UPDATE projects SET progress = 101 WHERE id = $1::uuid")
            .bind(&old)
            .execute(store.pool())
            .await;
        assert!(bad.is_err(), "progress is 0..=100");
        store.close().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn deleting_a_user_leaves_nothing_dangling() {
    for_each_backend(|db| async move {
        let store = Store::connect(&db.url).await.unwrap();
        let h = user(&store, "gone@example.com", Role::Homeowner).await;
        let b = user(&store, "stays@example.com", Role::Builder).await;
        let p = project(&store, "P", &h, Some(&b), 1).await;
        let img = image(&p, 2);
        images::insert(store.pool(), &img).await.unwrap();
        projects::set_thumbnail(store.pool(), &p, Some(&img.id), 3).await.unwrap();
        TestSql::per_backend(
            "INSERT INTO user_favourites (id, user_id, image_id, project_id, created_at) VALUES ($1, $2, $3, $4, 1)",
            "INSERT INTO user_favourites (id, user_id, image_id, project_id, created_at) \
             VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, TIMESTAMPTZ 'epoch' + INTERVAL '1 millisecond')",
        )
        .bind(new_id())
        .bind(&b)
        .bind(&img.id)
        .bind(&p)
        .execute(store.pool())
        .await
        .unwrap();
        sessions::insert(
            store.pool(),
            &sessions::NewSession { id: &new_id(), user_id: &h, token_hash: "x", now: 1, expires_at: 9, user_agent: None, ip: None },
        )
        .await
        .unwrap();
        // What the confirmation dialog states: as homeowner and as builder, with photos.
        project(&store, "Q", &h, None, 4).await;
        assert_eq!(projects::deletion_counts(store.pool(), &h).await.unwrap(), (2, 1));
        assert_eq!(projects::company_deletion_counts(store.pool(), &b).await.unwrap(), (1, 1));
        assert_eq!(projects::deletion_counts(store.pool(), "nobody").await.unwrap(), (0, 0));

        TestSql::per_backend("DELETE FROM users WHERE id = $1", "DELETE FROM users WHERE id = $1::uuid")
            .bind(&h)
            .execute(store.pool())
            .await
            .unwrap();
        for sql in [
            "SELECT COUNT(*) FROM projects",
            "SELECT COUNT(*) FROM project_images",
            "SELECT COUNT(*) FROM user_favourites",
            "SELECT COUNT(*) FROM sessions",
        ] {
            let n: i64 = TestSql::new(sql).scalar(store.pool()).await.unwrap();
            assert_eq!(n, 0, "{sql}: rows left after deleting their user");
        }
        assert!(images::all_storage_keys(store.pool()).await.unwrap().is_empty());
        assert!(users::find_by_id(store.pool(), &b).await.unwrap().is_some());
        store.close().await;
        db
    })
    .await;
}

/// A browser's push subscription for a new homeowner, to queue pushes to.
async fn subscription(store: &Store, endpoint: &str) -> String {
    let owner = user(store, &format!("{}@example.com", new_id()), Role::Homeowner).await;
    let session = new_id();
    sessions::insert(
        store.pool(),
        &sessions::NewSession { id: &session, user_id: &owner, token_hash: &new_id(), now: 1, expires_at: 4_102_444_800_000, user_agent: None, ip: None },
    )
    .await
    .unwrap();
    let id = new_id();
    push::subscribe(
        store.pool(),
        &push::NewPushSubscription {
            id: &id,
            user_id: &owner,
            session_id: &session,
            endpoint,
            p256dh: "p256dh",
            auth: "auth",
            device: "Firefox on Linux",
            now: 1,
        },
    )
    .await
    .unwrap();
    id
}

#[actix_web::test]
async fn outbox_leases_retries_and_marks_mail_sent() {
    for_each_backend(|db| async move {
        let store = Store::connect(&db.url).await.unwrap();
        // Ids are UUIDs (Postgres stores them as such).
        let (m1, m2) = ("00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002");
        let mail = |id: &'static str, now| outbox::NewMail {
            id,
            to_address: "x@example.com",
            subject: "s",
            body_text: "t",
            body_html: "h",
            list_unsubscribe: Some("https://sitecast.test/u"),
            attachment: Some(outbox::MailAttachment { key: "reports/r.pdf", name: "r.pdf", content_type: "application/pdf" }),
            now,
        };
        let pool = store.pool();
        outbox::insert_mail(pool, &mail(m1, 100)).await.unwrap();
        outbox::insert_mail(pool, &mail(m2, 200)).await.unwrap();
        assert_eq!(outbox::due_ids(pool, OutboxKind::Mail, 150, 10).await.unwrap(), vec![m1.to_owned()]);
        assert_eq!(outbox::due_ids(pool, OutboxKind::Mail, 250, 10).await.unwrap(), vec![m1.to_owned(), m2.to_owned()]);
        assert_eq!(outbox::due_ids(pool, OutboxKind::Push, 250, 10).await.unwrap(), Vec::<String>::new(), "mail is not a push");

        let claimed = outbox::claim(pool, m1, 250, 1_000).await.unwrap().unwrap();
        assert_eq!(
            claimed,
            OutboxRow {
                id: m1.into(),
                attempts: 1,
                message: Queued::Mail(QueuedMail {
                    to_address: "x@example.com".into(),
                    subject: "s".into(),
                    body_text: "t".into(),
                    body_html: "h".into(),
                    list_unsubscribe: Some("https://sitecast.test/u".into()),
                    attachment_key: Some("reports/r.pdf".into()),
                    attachment_name: Some("r.pdf".into()),
                    attachment_type: Some("application/pdf".into()),
                }),
            }
        );
        assert!(outbox::claim(pool, m1, 260, 1_000).await.unwrap().is_none(), "leased");
        assert_eq!(outbox::due_ids(pool, OutboxKind::Mail, 260, 10).await.unwrap(), vec![m2.to_owned()]);
        assert_eq!(outbox::due_ids(pool, OutboxKind::Mail, 1_000, 10).await.unwrap(), vec![m1.to_owned(), m2.to_owned()], "the lease ran out");

        outbox::retry(pool, m1, "smtp down", 5_000).await.unwrap();
        assert_eq!(outbox::next_due_at(pool, OutboxKind::Mail).await.unwrap(), Some(200));
        assert!(!outbox::due_ids(pool, OutboxKind::Mail, 4_999, 10).await.unwrap().contains(&m1.to_owned()));
        let again = outbox::claim(pool, m1, 5_000, 9_000).await.unwrap().unwrap();
        assert_eq!(again.attempts, 2);
        outbox::done(pool, m1, 5_001).await.unwrap();
        assert_eq!(outbox::pending(pool).await.unwrap(), OutboxPending { mail: 1, push: 0 });
        assert!(outbox::claim(pool, m1, 99_999, 100_000).await.unwrap().is_none(), "sent mail is never resent");
        let kept: (i64, Option<String>) = TestSql::per_backend(
            "SELECT sent_at, last_error FROM outbox WHERE id = $1",
            "SELECT (EXTRACT(EPOCH FROM sent_at) * 1000)::bigint, last_error FROM outbox WHERE id = $1::uuid",
        )
        .bind(m1)
        .fetch_one(pool)
        .await
        .unwrap();
        assert_eq!(kept, (5_001, None), "a sent mail stays, marked sent");
        store.close().await;
        db
    })
    .await;
}

/// Pushes share the queue with mail: leased and retried the same way, but a finished
/// push leaves the table, and a push goes with its subscription.
#[actix_web::test]
async fn outbox_holds_pushes_beside_mail_and_drops_them_with_their_subscription() {
    for_each_backend(|db| async move {
        let store = Store::connect(&db.url).await.unwrap();
        let pool = store.pool();
        let (kept_sub, gone_sub) = (subscription(&store, "https://push.example/1").await, subscription(&store, "https://push.example/2").await);
        let (mail, p1, p2, p3) = (new_id(), new_id(), new_id(), new_id());
        outbox::insert_mail(
            pool,
            &outbox::NewMail { id: &mail, to_address: "x@example.com", subject: "s", body_text: "t", body_html: "h", list_unsubscribe: None, attachment: None, now: 100 },
        )
        .await
        .unwrap();
        for (id, sub, now) in [(&p1, &kept_sub, 110), (&p2, &kept_sub, 120), (&p3, &gone_sub, 130)] {
            outbox::insert_push(pool, &outbox::NewPush { id, subscription_id: sub, payload: r#"{"title":"t"}"#, now }).await.unwrap();
        }
        assert_eq!(outbox::pending(pool).await.unwrap(), OutboxPending { mail: 1, push: 3 });
        assert_eq!(outbox::due_ids(pool, OutboxKind::Push, 1_000, 10).await.unwrap(), vec![p1.clone(), p2.clone(), p3.clone()]);
        assert_eq!(outbox::due_ids(pool, OutboxKind::Push, 1_000, 2).await.unwrap(), vec![p1.clone(), p2.clone()], "a batch at a time");
        assert_eq!(outbox::due_ids(pool, OutboxKind::Mail, 1_000, 10).await.unwrap(), vec![mail.clone()]);
        assert_eq!(outbox::next_due_at(pool, OutboxKind::Push).await.unwrap(), Some(110));

        let claimed = outbox::claim(pool, &p1, 1_000, 61_000).await.unwrap().unwrap();
        assert_eq!(
            claimed,
            OutboxRow { id: p1.clone(), attempts: 1, message: Queued::Push(QueuedPush { subscription_id: kept_sub.clone(), payload: r#"{"title":"t"}"#.into() }) }
        );
        assert_eq!(claimed.kind(), OutboxKind::Push);
        assert!(outbox::claim(pool, &p1, 60_999, 121_000).await.unwrap().is_none(), "leased");
        outbox::retry(pool, &p1, "push service answered 503", 16_000).await.unwrap();
        assert_eq!(outbox::due_ids(pool, OutboxKind::Push, 15_999, 10).await.unwrap(), vec![p2.clone(), p3.clone()]);
        assert_eq!(outbox::claim(pool, &p1, 16_000, 76_000).await.unwrap().map(|r| r.attempts), Some(2));

        // Sent (or given up on): a push leaves the table.
        outbox::done(pool, &p1, 16_500).await.unwrap();
        let left: i64 = TestSql::per_backend("SELECT COUNT(*) FROM outbox WHERE id = $1", "SELECT COUNT(*) FROM outbox WHERE id = $1::uuid")
            .bind(p1.as_str())
            .scalar(pool)
            .await
            .unwrap();
        assert_eq!(left, 0);
        assert!(outbox::claim(pool, &p1, 99_999, 100_000).await.unwrap().is_none());

        // A subscription deleted (turned off, or gone at its service) takes its pushes.
        push::forget(pool, &gone_sub).await.unwrap();
        assert_eq!(outbox::pending(pool).await.unwrap(), OutboxPending { mail: 1, push: 1 });
        assert!(outbox::claim(pool, &p3, 20_000, 80_000).await.unwrap().is_none());
        assert_eq!(outbox::due_ids(pool, OutboxKind::Push, 20_000, 10).await.unwrap(), vec![p2.clone()]);

        // A row is a whole mail or a whole push: the schema refuses a mix.
        let mixed = TestSql::per_backend(
            "INSERT INTO outbox (id, kind, created_at, next_attempt_at, to_address, subscription_id, payload) VALUES ($1, 'push', 1, 1, 'x@example.com', $2, '{}')",
            "INSERT INTO outbox (id, kind, created_at, next_attempt_at, to_address, subscription_id, payload) \
             VALUES ($1::uuid, 'push', now(), now(), 'x@example.com', $2::uuid, '{}')",
        )
        .bind(new_id().as_str())
        .bind(kept_sub.as_str())
        .execute(pool)
        .await;
        assert!(mixed.is_err(), "a push with a mail's address");
        store.close().await;
        db
    })
    .await;
}
