import { useMutation } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, errorMessage } from '../api/client';
import { usePageMeta } from '../hooks/usePageMeta';
import { usePrivatePage } from '../hooks/usePrivatePage';

/**
 * /email-digest/stop/<token>: the link at the foot of each weekly e-mail. Public (the link is the key), and
 * it stops the e-mail only when the reader presses the button: a mail scanner that opens the link stops
 * nothing.
 */
export default function EmailDigestStopPage() {
  const { token = '' } = useParams();
  usePageMeta('Stop the weekly e-mail', 'Stop the weekly e-mail of deadlines.');
  usePrivatePage();
  const stop = useMutation({ mutationFn: () => api.stopDigest({ token }) });
  return (
    <section className="page">
      <h1>Stop the weekly e-mail</h1>
      {stop.isSuccess ? (
        <p role="status">{stop.data.message}</p>
      ) : (
        <>
          <p>The weekly e-mail lists the deadlines of your plan for the next two weeks. Stop sending it?</p>
          <button type="button" className="button" disabled={stop.isPending} onClick={() => stop.mutate()}>
            Stop the weekly e-mail
          </button>
          {stop.isError && <p role="alert">{errorMessage(stop.error)}</p>}
        </>
      )}
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </section>
  );
}
