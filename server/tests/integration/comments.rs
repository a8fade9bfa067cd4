//! Comments on photos over the socket: who may read, write, edit and delete them, what
//! bad input gets, and that each change reaches the project's subscribers live and no
//! one else.

use protocol::{Comment, ErrorCode, Event, Project, ProjectImage, Request, Response, Role};

use crate::support::{for_each_backend, Options, TestServer, TestSql, WorldSpec, WsClient};

fn slow_beats() -> Options {
    Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }
}

async fn subscribe(ws: &mut WsClient, id: u32, project: &str) -> Vec<ProjectImage> {
    match ws.request(id, Request::Subscribe(protocol::Subscribe { id: project.to_owned() })).await.unwrap() {
        Response::Subscribed { photos, .. } => photos,
        other => panic!("expected subscribed, got {other:?}"),
    }
}

async fn add(ws: &mut WsClient, id: u32, image_id: &str, body: &str) -> Result<Comment, protocol::ApiError> {
    match ws.request(id, Request::AddComment(protocol::AddComment { image_id: image_id.to_owned(), body: body.to_owned() })).await? {
        Response::Comment { comment } => Ok(comment),
        other => panic!("expected a comment, got {other:?}"),
    }
}

async fn comment_rows(server: &TestServer) -> i64 {
    TestSql::new("SELECT COUNT(*) FROM photo_comments").scalar(server.state.store.pool()).await.unwrap()
}

/// The next comment event: (kind, comment id, photo id, count when it carries one).
async fn next_comment_event(ws: &mut WsClient) -> (&'static str, String, String, Option<i64>) {
    ws.event(|e| match e {
        Event::CommentAdded { comment, comment_count } => {
            Some(("added", comment.id.clone(), comment.image_id.clone(), Some(*comment_count)))
        }
        Event::CommentUpdated { comment } => Some(("updated", comment.id.clone(), comment.image_id.clone(), None)),
        Event::CommentDeleted { id, image_id, comment_count, .. } => {
            Some(("deleted", id.clone(), image_id.clone(), Some(*comment_count)))
        }
        _ => None,
    })
    .await
}

#[actix_web::test]
async fn comments_reach_the_projects_subscribers_live_and_no_one_else() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        // Two homeowners' projects with a photo each, and no comments yet.
        let world = server.world(WorldSpec { projects: 2, photos: 1, homeowners: 2, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let (mut admin, admin_hello) = server.connect_as(&world.users["admin"].session).await;
        let (mut builder, builder_hello) = server.connect_as(&world.users["owner"].session).await;
        let (mut home, home_hello) = server.connect_as(&world.users["homeowner"].session).await;
        let (mut home_tab2, _) = server.connect_as(&world.users["homeowner"].session).await;
        let maple: Project = home_hello.snapshot.projects.iter().find(|p| p.id == world.projects[0].id).unwrap().clone();
        // A project the homeowner may not see (their neighbour's), with photos.
        let mut foreign = None;
        for p in admin_hello.snapshot.projects.iter().filter(|p| p.homeowner_id != maple.homeowner_id) {
            let photos = subscribe(&mut admin, 900, &p.id).await;
            if let Some(photo) = photos.first() {
                foreign = Some((p.clone(), photo.clone()));
                break;
            }
        }
        let (_foreign, foreign_photo) = foreign.expect("a project of another homeowner with photos");

        let photos = subscribe(&mut builder, 1, &maple.id).await;
        subscribe(&mut home_tab2, 1, &maple.id).await;
        let photo = photos[0].clone();
        assert_eq!(photo.comment_count, 0);

        // The homeowner may not see the neighbour's project: its photo's comments are
        // answered like an unknown photo, and nothing is stored.
        let err = add(&mut home, 1, &foreign_photo.id, "Nice!").await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::NotFound, "Image not found"));
        let err = home.request(2, Request::ListComments(protocol::ListComments { image_id: foreign_photo.id.clone() })).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::NotFound);
        assert_eq!(comment_rows(&server).await, 0);

        // An admin comments on the neighbour's photo first, then the homeowner on their
        // own: the homeowner's other tab hears only of the second.
        let theirs = add(&mut admin, 2, &foreign_photo.id, "Framing inspection passed.").await.unwrap();
        let question = format!("Is this crack in the foundation a problem, @{}?", world.users["owner"].name);
        let mine = add(&mut home, 3, &photo.id, &format!("  {question}  ")).await.unwrap();
        assert_eq!(mine.body, question);
        assert_eq!(mine.author.id, home_hello.user.id);
        assert_eq!(mine.author.name.as_deref(), Some(world.users["homeowner"].name.as_str()));
        assert_eq!(next_comment_event(&mut home_tab2).await, ("added", mine.id.clone(), photo.id.clone(), Some(1)));
        assert_eq!(next_comment_event(&mut builder).await, ("added", mine.id.clone(), photo.id.clone(), Some(1)));
        assert_eq!(next_comment_event(&mut admin).await, ("added", theirs.id.clone(), foreign_photo.id.clone(), Some(1)));

        // The count is stored with the photo; the thread lists the comment and the
        // people who may be mentioned.
        let Response::Photos { photos, .. } = builder.request(2, Request::ListPhotos(protocol::ListPhotos::first(maple.id.clone()))).await.unwrap() else {
            panic!()
        };
        assert_eq!(photos.iter().find(|p| p.id == photo.id).unwrap().comment_count, 1);
        let Response::Comments { comments, people, .. } =
            builder.request(3, Request::ListComments(protocol::ListComments { image_id: photo.id.clone() })).await.unwrap()
        else {
            panic!()
        };
        assert_eq!(comments, vec![mine.clone()]);
        let mut roles: Vec<(String, &str)> = people.iter().map(|p| (p.id.clone(), p.role.as_str())).collect();
        roles.sort();
        // The builder company's people who see the project (its owner, its manager, and
        // its crew member, who is on this project) are among them.
        let mut expected = vec![
            (admin_hello.user.id.clone(), Role::Admin.as_str()),
            (home_hello.user.id.clone(), Role::Homeowner.as_str()),
        ];
        expected.extend(builder_hello.snapshot.companies[0].members.iter().map(|m| (m.id.clone(), Role::Builder.as_str())));
        expected.sort();
        assert_eq!(roles, expected, "the project's homeowner, its company's people who see it and admins");

        // Only the author edits; others get a typed error and nothing changes.
        let edit = |id: &str, body: &str| Request::EditComment(protocol::EditComment { id: id.to_owned(), body: body.to_owned() });
        let err = builder.request(4, edit(&mine.id, "Edited by someone else")).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Forbidden, "You can only edit your own comments."));
        let err = admin.request(4, edit(&mine.id, "Edited by an admin")).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Forbidden, "admins delete others' comments but do not edit them");
        let err = builder.request(5, Request::DeleteComment(protocol::DeleteComment { id: mine.id.clone() })).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Forbidden, "You can only delete your own comments."));
        let err = home.request(4, edit(&theirs.id, "Not mine")).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::NotFound, "Comment not found"), "unseen is unknown");
        let err = home.request(5, Request::DeleteComment(protocol::DeleteComment { id: theirs.id.clone() })).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::NotFound);

        // Bad input: typed errors, nothing stored.
        let err = add(&mut home, 6, &photo.id, " \n ").await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Validation, "Comment cannot be empty."));
        assert_eq!(err.fields[0].field, "body");
        let err = add(&mut home, 7, &photo.id, &"x".repeat(2001)).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Validation, "Comment must be at most 2000 characters."));
        let err = add(&mut home, 8, "no-such-photo", "Hello").await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::NotFound, "Image not found"));
        let err = home.request(9, edit("no-such-comment", "Hello")).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::NotFound, "Comment not found"));
        let err = home.request(10, edit(&mine.id, "")).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Validation);
        let err = home.request(11, Request::DeleteComment(protocol::DeleteComment { id: "no-such-comment".into() })).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::NotFound);
        assert_eq!(comment_rows(&server).await, 2);

        // The author edits: subscribers see the new text.
        let Response::Comment { comment: edited } = home.request(12, edit(&mine.id, "Is this crack a problem?")).await.unwrap() else {
            panic!()
        };
        assert_eq!(edited.body, "Is this crack a problem?");
        assert!(edited.updated_at >= edited.created_at);
        assert_eq!(next_comment_event(&mut builder).await, ("updated", mine.id.clone(), photo.id.clone(), None));

        // An admin deletes the homeowner's comment; the count drops on every tab.
        assert_eq!(admin.request(5, Request::DeleteComment(protocol::DeleteComment { id: mine.id.clone() })).await, Ok(Response::Done));
        assert_eq!(next_comment_event(&mut builder).await, ("deleted", mine.id.clone(), photo.id.clone(), Some(0)));
        assert_eq!(next_comment_event(&mut home_tab2).await, ("updated", mine.id.clone(), photo.id.clone(), None));
        assert_eq!(next_comment_event(&mut home_tab2).await, ("deleted", mine.id.clone(), photo.id.clone(), Some(0)));
        let err = home.request(13, edit(&mine.id, "Back?")).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::NotFound);
        assert_eq!(comment_rows(&server).await, 1);
        // The author deletes their own.
        assert_eq!(admin.request(6, Request::DeleteComment(protocol::DeleteComment { id: theirs.id.clone() })).await, Ok(Response::Done));
        assert_eq!(comment_rows(&server).await, 0);
        server.stop().await;
        db
    })
    .await;
}
