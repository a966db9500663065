// A small form-state hook shared by the forms of the app (PRODUCT §4 "Submit
// button", §5 "Errors show once a field is touched").
//
// - `touched`: the field lost focus (or was marked so); its error then shows.
// - `dirty`: the user changed the field at least once; the submit button
//   stays disabled until some field is dirty and no field has an error.
// - `serverErrors`: field messages returned by the daemon (422); they show
//   until the field changes again.
import { useCallback, useMemo, useState } from 'react'
import { type Errors, isValid } from '../validation/common'

export interface FormStateOptions {
  /** Also show, from the start, the errors the initial values already have. */
  showInitialErrors?: boolean
}

export interface FormState<V, F extends string> {
  values: V
  /** Every current error, shown or not. */
  errors: Errors<F>
  /** The error to display under a field, if any. */
  errorOf(field: F): string | undefined
  setValue<K extends keyof V>(field: K, value: V[K], options?: { touch?: boolean }): void
  touch(field: F): void
  touchAll(): void
  setServerErrors(errors: Record<string, string>): void
  isDirty: boolean
  /** Whether a field was changed (the submit may be enabled). */
  dirtyFields: ReadonlySet<keyof V>
  canSubmit: boolean
}

export function useFormState<V extends object, F extends string>(
  initial: V,
  validate: (values: V) => Errors<F>,
  options: FormStateOptions = {},
): FormState<V, F> {
  const [values, setValues] = useState<V>(initial)
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set())
  const [dirtyFields, setDirty] = useState<ReadonlySet<keyof V>>(() => new Set())
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})
  const [allTouched, setAllTouched] = useState(false)

  const errors = useMemo(() => validate(values), [validate, values])
  // The initial values are fixed for the life of the form (remount it to reset).
  const [initialErrors] = useState<Errors<F>>(() => (options.showInitialErrors ? validate(initial) : {}))

  const setValue = useCallback(<K extends keyof V>(field: K, value: V[K], opts?: { touch?: boolean }) => {
    setValues((prev) => ({ ...prev, [field]: value }))
    setDirty((prev) => (prev.has(field) ? prev : new Set(prev).add(field)))
    setServerErrors((prev) => {
      if (!(String(field) in prev)) return prev
      const next = { ...prev }
      delete next[String(field)]
      return next
    })
    if (opts?.touch) setTouched((prev) => (prev.has(String(field)) ? prev : new Set(prev).add(String(field))))
  }, [])

  const touch = useCallback((field: F) => {
    setTouched((prev) => (prev.has(field) ? prev : new Set(prev).add(field)))
  }, [])

  const errorOf = (field: F): string | undefined => {
    if (serverErrors[field]) return serverErrors[field]
    const message = errors[field]
    if (!message) return undefined
    if (allTouched || touched.has(field) || initialErrors[field]) return message
    return undefined
  }

  const isDirty = dirtyFields.size > 0
  return {
    values,
    errors,
    errorOf,
    setValue,
    touch,
    touchAll: () => setAllTouched(true),
    setServerErrors,
    isDirty,
    dirtyFields,
    canSubmit: isDirty && isValid(errors),
  }
}
