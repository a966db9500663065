// The submit of the forms whose action answers with a message or throws the
// daemon's error (the account forms of PRODUCT §13): every error shows, the
// form is checked, the action runs once at a time, field errors of a 422
// land under their fields and the daemon's message above the button.
import { type FormEvent, useCallback, useState } from 'react'
import { ApiError, errorMessage } from '../api'
import type { Errors } from '../validation/common'
import { type FormState, useFormState } from './useFormState'
import { type Submission, useSubmit } from './useSubmit'

export interface SendForm<V, F extends string> {
  form: FormState<V, F>
  submission: Submission
  onSubmit(event: FormEvent): Promise<void>
}

/** A form whose valid values go to `send`; see the file's comment. */
export function useSendForm<V extends object, F extends string>(
  initial: V,
  validate: (values: V) => Errors<F>,
  send: (values: V) => Promise<void>,
): SendForm<V, F> {
  const form = useFormState<V, F>(initial, validate)
  const submission = useSubmit()
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (!form.canSubmit) return
    await submission.run(async () => {
      try {
        await send(form.values)
      } catch (err) {
        if (err instanceof ApiError) form.setServerErrors(err.fieldErrors())
        return errorMessage(err)
      }
    })
  }
  return { form, submission, onSubmit }
}

/** The props binding an input to a field: its value, its change, its touch on blur and its error. */
export function fieldProps<V extends Record<F, string>, F extends string>(form: FormState<V, F>, field: F) {
  return {
    value: form.values[field],
    onChange: (e: { currentTarget: { value: string } }) => form.setValue(field, e.currentTarget.value as V[F]),
    onBlur: () => form.touch(field),
    error: form.errorOf(field),
  }
}

/**
 * The outcome message of a form that empties itself once done (a profile's
 * password or email change): `done` stays above the form, `key` changes so
 * that the form remounts with its initial values.
 */
export function useDoneAndReset() {
  const [key, setKey] = useState(0)
  const [done, setDone] = useState<string | null>(null)
  const onDone = useCallback((message: string) => {
    setDone(message)
    setKey((k) => k + 1)
  }, [])
  return { key, done, onDone }
}
