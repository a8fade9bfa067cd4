// Generated from the Rust `protocol` crate by `cargo test -p sitecast-protocol`.
// Do not edit: change the Rust types and run `UPDATE_TS_TYPES=1 cargo test -p sitecast-protocol`.

export const PROTOCOL_VERSION = 1;

export type Role = "admin" | "builder" | "homeowner";

export type ProjectStatus = "planning" | "in-progress" | "on-hold" | "completed";

export type ImageCategory = "interior" | "exterior" | "structural" | "finishes" | "other" | "general";

export type Profile = { id: string, email: string, role: Role, name: string | null, firstName: string | null, lastName: string | null, phone: string | null, 
/**
 * For homeowners: the builder they work with, if any.
 */
builderId: string | null, emailConfirmedAt: number | null, lastSignInAt: number | null, createdAt: number, 
/**
 * Monotonic per user; a client ignores an event older than what it holds.
 */
version: number, };

export type UserSummary = { id: string, email: string, name: string | null, role: Role, createdAt: number, };

export type Project = { id: string, title: string, description: string, address: string, homeownerId: string, 
/**
 * Display name of the homeowner, joined from their profile.
 */
homeownerName: string, homeownerFirstName: string | null, homeownerLastName: string | null, builderId: string | null, builderName: string | null, status: ProjectStatus, 
/**
 * 0 to 100.
 */
progress: number, 
/**
 * Thumbnail rendition of the project's cover photo, served after an access check.
 */
thumbnailUrl: string | null, createdAt: number, updatedAt: number, 
/**
 * Monotonic per project; a client ignores an event older than what it holds.
 */
version: number, };

export type ProjectImage = { id: string, projectId: string, category: ImageCategory, caption: string | null, 
/**
 * The uploaded file's name, used for downloads.
 */
originalName: string, width: number, height: number, 
/**
 * Capture time from the photo's EXIF data, when it had one.
 */
takenAt: number | null, createdAt: number, thumbUrl: string, displayUrl: string, downloadUrl: string, version: number, };

export type Favourite = { id: string, userId: string, imageId: string, projectId: string, createdAt: number, };

export type ErrorCode = "bad_request" | "validation" | "unauthorized" | "invalid_credentials" | "email_not_confirmed" | "invalid_token" | "forbidden" | "not_found" | "conflict" | "user_exists" | "rate_limited" | "too_large" | "unsupported_media_type" | "internal";

export type FieldError = { field: string, message: string, };

export type ApiError = { code: ErrorCode, message: string, 
/**
 * Per-field messages for `validation` errors; empty otherwise.
 */
fields: Array<FieldError>, };

export type ClientMsg = { 
/**
 * Chosen by the client; echoed on the reply or error.
 */
id: number, request: Request, };

export type Request = { "type": "ping" };

export type Response = { "type": "pong" };

export type Snapshot = { 
/**
 * Projects visible to the user, most recently updated first.
 */
projects: Array<Project>, };

export type Hello = { protocolVersion: number, serverTime: number, user: Profile, snapshot: Snapshot, };

export type Event = { "type": "session_ended", reason: string, };

export type ServerMsg = { "type": "hello" } & Hello | { "type": "reply", id: number, response: Response, } | { "type": "error", id: number | null, error: ApiError, } | { "type": "event", event: Event, };
