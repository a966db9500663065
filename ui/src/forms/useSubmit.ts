// The submission state every form shares (PRODUCT §4 "Submit button", §8): the
// button is disabled and reads "en cours..." while the request runs, a second
// submission meanwhile is ignored, and a failure message the action returns
// shows above the button until the next submission. The toasts stay with
// the store's actions (progress(…) and the PRODUCT §8 texts).
import { useCallback, useRef, useState } from 'react'

/** The submit button's text while the request runs (PRODUCT §4). */
export const SUBMITTING_LABEL = 'en cours...'

/**
 * What a form's action reports: a message to show (a failure the form
 * displays itself), or nothing when it succeeded or showed its outcome
 * otherwise (a toast, field errors).
 */
export type SubmitResult = string | null | undefined | void

export interface Submission {
  /** The request runs: disable the submit button. */
  submitting: boolean
  /** The last submission's failure message, cleared when the next starts. */
  failure: string | null
  /**
   * Runs `action` unless a submission already runs: clears the failure,
   * sets `submitting` until the action settles, then keeps the message it
   * returned. An action that throws leaves no failure and rethrows.
   */
  run(action: () => Promise<SubmitResult>): Promise<void>
  /** The submit button's text: `idle`, or "en cours..." while submitting. */
  label(idle: string): string
}

/** The submission state of one form (see the file's comment). */
export function useSubmit(): Submission {
  const [submitting, setSubmitting] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  // A ref, not the state: two submissions in one render both see false.
  const running = useRef(false)

  const run = useCallback(async (action: () => Promise<SubmitResult>) => {
    if (running.current) return
    running.current = true
    setSubmitting(true)
    setFailure(null)
    try {
      const message = await action()
      setFailure(message || null)
    } finally {
      running.current = false
      setSubmitting(false)
    }
  }, [])

  const label = useCallback((idle: string) => (submitting ? SUBMITTING_LABEL : idle), [submitting])

  return { submitting, failure, run, label }
}
