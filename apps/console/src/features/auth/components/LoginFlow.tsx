import { lazy, Suspense } from 'react';
import { LOGIN_STEP_KEYS, type LoginStepKey } from '@kefu/protocol';
import { storage } from '../../../lib/storage';
import { useSession } from '../../../app/session';
import { RequestError } from '../../../lib/request';

// Two-factor / expired-password step (corporate security): its own chunk, loaded only when a login needs it.
const LoginStepForm = lazy(() => import('../../security/components/LoginStepForm'));

export interface PendingStep {
  step: LoginStepKey;
  ticket: string;
}

/** The second step a refused login asks for (its key and ticket), or null for any other error. */
export function pendingStep(err: unknown): PendingStep | null {
  if (!(err instanceof RequestError)) return null;
  const ticket = err.fields?.ticket;
  const key = err.key ?? '';
  return ticket && (LOGIN_STEP_KEYS as readonly string[]).includes(key)
    ? { step: key as LoginStepKey, ticket }
    : null;
}

/** Keeps the session a login answered and loads the console (password, provider and binding logins alike). */
export function useFinishLogin() {
  const bootstrap = useSession((s) => s.bootstrap);
  return async (res: { token: string; user: unknown }) => {
    storage.set('token', res.token);
    storage.setJson('userInfo', res.user);
    await bootstrap();
  };
}

export function StepPanel(props: {
  pending: PendingStep;
  onDone: (r: { token: string; user: unknown }) => void;
  onCancel: () => void;
}) {
  return (
    <Suspense fallback={null}>
      <LoginStepForm
        step={props.pending.step}
        ticket={props.pending.ticket}
        onDone={props.onDone}
        onCancel={props.onCancel}
      />
    </Suspense>
  );
}
