import * as v from "valibot";

// Spec §5 and §9: the messages are the product's own texts, shown under the form fields as they are.
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const PASSWORD_MIN = 8;
/** Not in the spec: a bound so nobody makes the server hash a megabyte. */
export const PASSWORD_MAX = 128;

// A missing field reads as empty, so it gets its own message rather than a generic one.
const Username = v.pipe(
  v.optional(v.string("Username must be at least 3 characters"), ""),
  v.trim(),
  v.minLength(USERNAME_MIN, "Username must be at least 3 characters"),
  v.maxLength(USERNAME_MAX, "Username must be at most 50 characters"),
);

const Email = v.pipe(
  v.optional(v.string("Please enter a valid email"), ""),
  v.trim(),
  v.maxLength(254, "Please enter a valid email"),
  v.email("Please enter a valid email"),
);

const NewPassword = v.pipe(
  v.optional(v.string("Password must be at least 8 characters"), ""),
  v.minLength(PASSWORD_MIN, "Password must be at least 8 characters"),
  v.maxLength(PASSWORD_MAX, "Password must be at most 128 characters"),
);

/** POST /api/register body. */
export const Register = v.object(
  { username: Username, email: Email, password: NewPassword },
  "The body must be a JSON object with a username, email and password",
);
export type Register = v.InferOutput<typeof Register>;

/** The register form: confirmPassword is checked here and never sent (spec §3). */
export const RegisterForm = v.pipe(
  v.object({ ...Register.entries, confirmPassword: v.optional(v.string("Passwords do not match"), "") }),
  v.forward(
    v.partialCheck([["password"], ["confirmPassword"]], (input) => input.password === input.confirmPassword, "Passwords do not match"),
    ["confirmPassword"],
  ),
);
export type RegisterForm = v.InferOutput<typeof RegisterForm>;

/** POST /api/login body. Min 3 says "required": a shorter name cannot exist (spec §5). */
export const Login = v.object(
  {
    username: v.pipe(
      v.optional(v.string("Username is required"), ""),
      v.trim(),
      v.minLength(USERNAME_MIN, "Username is required"),
      v.maxLength(USERNAME_MAX, "Username must be at most 50 characters"),
    ),
    password: v.pipe(
      v.optional(v.string("Password is required"), ""),
      v.minLength(1, "Password is required"),
      v.maxLength(PASSWORD_MAX, "Password must be at most 128 characters"),
    ),
  },
  "The body must be a JSON object with a username and password",
);
export type Login = v.InferOutput<typeof Login>;

/** GET /api/auth/user, and the answer to register and login (spec §3 "User"). */
export const User = v.object({
  username: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  email: v.string(),
  profileImageUrl: v.nullable(v.string()),
});
export type User = v.InferOutput<typeof User>;

/** POST /api/logout. */
export const LogoutResult = v.object({ success: v.literal(true) });
