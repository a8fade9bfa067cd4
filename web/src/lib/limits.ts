// The server's longest accepted values (server/src/domain/validation.rs, README
// "Limits"), as `maxLength` on the form inputs; a server test keeps the numbers equal.
// HTML counts UTF-16 code units, never fewer than the server's characters, so a form
// cannot send more than the server takes.
export const MAX_LENGTH = {
  firstName: 100,
  lastName: 100,
  name: 200,
  email: 254,
  phone: 40,
  password: 256,
  projectTitle: 200,
  projectAddress: 300,
  projectDescription: 5000,
  caption: 500,
  batchNote: 1000,
  comment: 2000,
  milestoneName: 120,
  contactMessage: 5000,
} as const;
