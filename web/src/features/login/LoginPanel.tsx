import { LIMITS, MSG } from '@ct/contracts/messages';
import {
  createUserWithEmailAndPassword,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
  updateProfile,
} from 'firebase/auth';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { authErrorCode, authErrorMessage, RESET_OFFER_CODES } from '../../auth/errors';
import { useCooldown } from '../../auth/useCooldown';
import { useConfig } from '../../config';
import { firebaseAuth } from '../../firebase';
import { EmulatorGoogleAccount } from './EmulatorGoogleAccount';
import { GoogleIcon } from './GoogleIcon';
import { signInWithGooglePopup } from './googleSignIn';
import './login.css';

type Mode = 'login' | 'signup';

/** The Login / Sign Up card: e-mail and password, Google, and the password-reset offer. */
export function LoginPanel() {
  const auth = firebaseAuth();
  const navigate = useNavigate();
  const config = useConfig();
  const ids = useId();
  const [mode, setMode] = useState<Mode>('login');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [info, setInfo] = useState('');
  const [offerReset, setOfferReset] = useState(false);
  const [busy, setBusy] = useState(false);
  const resetLock = useCooldown(LIMITS.passwordResetLockMs);
  const signup = mode === 'signup';

  const toggleMode = () => {
    setMode(signup ? 'login' : 'signup');
    setError('');
    setInfo('');
    setOfferReset(false);
  };

  const logIn = async () => {
    try {
      const { user } = await signInWithEmailAndPassword(auth, email, password);
      if (!user.emailVerified) {
        await signOut(auth);
        setError(MSG.emailNotVerified);
        return;
      }
      navigate('/');
    } catch (err) {
      if (RESET_OFFER_CODES.has(authErrorCode(err))) setOfferReset(true);
      setError(authErrorMessage(err));
    }
  };

  const signUp = async () => {
    if (!name.trim()) {
      setError(MSG.enterName);
      return;
    }
    try {
      const { user } = await createUserWithEmailAndPassword(auth, email, password);
      try {
        await updateProfile(user, { displayName: name.trim() });
        await sendEmailVerification(user);
      } finally {
        // the account may only be used once its e-mail is verified
        await signOut(auth);
      }
      setMode('login');
      setPassword('');
      setInfo(MSG.signUpInfo);
    } catch (err) {
      setError(authErrorMessage(err));
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setError('');
    setInfo('');
    setBusy(true);
    try {
      await (signup ? signUp() : logIn());
    } finally {
      setBusy(false);
    }
  };

  const sendReset = async () => {
    if (resetLock.locked) return;
    resetLock.start();
    setError('');
    setInfo('');
    try {
      await sendPasswordResetEmail(auth, email);
      setInfo(MSG.resetSent);
    } catch (err) {
      setError(MSG.resetError(authErrorMessage(err)));
    }
  };

  const google = async () => {
    setError('');
    setInfo('');
    setBusy(true);
    try {
      await signInWithGooglePopup(auth);
      navigate('/');
    } catch {
      setError(MSG.googleSignInError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="card login-card">
      <h1>{signup ? 'Sign Up' : 'Login'}</h1>
      <div aria-live="polite">
        {error ? (
          <p className="banner error" role="alert">
            {error}
          </p>
        ) : null}
        {info ? (
          <p className="banner info" role="status">
            {info}
          </p>
        ) : null}
      </div>
      <form onSubmit={onSubmit} aria-label={signup ? 'Sign Up' : 'Login'}>
        {signup ? (
          <div className="field">
            <label htmlFor={`${ids}-name`}>Name</label>
            <input
              id={`${ids}-name`}
              name="name"
              type="text"
              autoComplete="name"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${ids}-email`}>Email</label>
          <input
            id={`${ids}-email`}
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-password`}>Password</label>
          <input
            id={`${ids}-password`}
            name="password"
            type="password"
            autoComplete={signup ? 'new-password' : 'current-password'}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <button type="submit" className="login-submit" disabled={busy} aria-busy={busy}>
          {signup ? 'Sign Up' : 'Login'}
        </button>
      </form>
      {offerReset ? (
        <p className="login-reset">
          <button type="button" className="link" disabled={resetLock.locked} onClick={sendReset}>
            {resetLock.locked ? MSG.pleaseWait : 'Send Password Reset Email'}
          </button>
        </p>
      ) : null}
      <div className="login-alt">
        <span className="muted">or</span>
        <button
          type="button"
          className="google-button"
          aria-label="Sign in with Google"
          title="Sign in with Google"
          disabled={busy}
          onClick={google}
        >
          <GoogleIcon />
        </button>
      </div>
      <p className="login-toggle">
        <span className="muted">{signup ? 'Already have an account?' : 'New here?'}</span>{' '}
        <button type="button" className="link" onClick={toggleMode}>
          {signup ? 'Back to log in' : 'Create an account'}
        </button>
      </p>
      {config.firebase.emulatorUrl ? (
        <EmulatorGoogleAccount
          onDone={() => navigate('/')}
          onError={(m) => {
            setInfo('');
            setError(m);
          }}
        />
      ) : null}
    </div>
  );
}
