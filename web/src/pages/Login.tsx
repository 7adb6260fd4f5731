import { LoginPanel } from '../features/login/LoginPanel';
import { usePageMeta } from '../hooks/usePageMeta';

/** /login: log in or sign up with e-mail and password, or with Google. */
export default function LoginPage() {
  usePageMeta('Login', 'Sign in or create your free account to organise your college applications.');
  return (
    <section className="page login-page">
      <LoginPanel />
    </section>
  );
}
