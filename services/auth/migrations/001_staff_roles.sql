CREATE TABLE auth.staff_roles (
  uid text PRIMARY KEY,
  role text NOT NULL CHECK (role IN ('admin', 'staff')),
  email text,
  granted_at timestamptz NOT NULL DEFAULT now(),
  granted_by text
);
CREATE INDEX staff_roles_role_idx ON auth.staff_roles (role);
