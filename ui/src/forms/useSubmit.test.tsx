import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { type SubmitResult, SUBMITTING_LABEL, useSubmit } from './useSubmit'

/** A promise settled by the test, never by a timer. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('useSubmit', () => {
  it('is idle at first: no failure, the button reads its own text', () => {
    const { result } = renderHook(() => useSubmit())
    expect(result.current.submitting).toBe(false)
    expect(result.current.failure).toBeNull()
    expect(result.current.label('Enregistrer')).toBe('Enregistrer')
  })

  it.each<{ name: string; outcome: SubmitResult; failure: string | null }>([
    { name: 'a message', outcome: 'Ce besoin existe déjà', failure: 'Ce besoin existe déjà' },
    { name: 'nothing', outcome: undefined, failure: null },
    { name: 'null', outcome: null, failure: null },
    { name: 'an empty text', outcome: '', failure: null },
  ])('submits while the action runs, then keeps $name as the failure', async ({ outcome, failure }) => {
    const { result } = renderHook(() => useSubmit())
    const action = deferred<SubmitResult>()
    let run!: Promise<void>
    act(() => {
      run = result.current.run(() => action.promise)
    })
    expect(result.current.submitting).toBe(true)
    expect(result.current.label('Enregistrer')).toBe(SUBMITTING_LABEL)
    expect(SUBMITTING_LABEL).toBe('en cours...')
    await act(async () => {
      action.resolve(outcome)
      await run
    })
    expect(result.current.submitting).toBe(false)
    expect(result.current.failure).toBe(failure)
    expect(result.current.label('Enregistrer')).toBe('Enregistrer')
  })

  it('clears the last failure when the next submission starts', async () => {
    const { result } = renderHook(() => useSubmit())
    await act(() => result.current.run(async () => 'Identifiants invalides'))
    expect(result.current.failure).toBe('Identifiants invalides')
    const action = deferred<SubmitResult>()
    let run!: Promise<void>
    act(() => {
      run = result.current.run(() => action.promise)
    })
    expect(result.current.failure).toBeNull()
    await act(async () => {
      action.resolve(undefined)
      await run
    })
    expect(result.current.failure).toBeNull()
  })

  it('ignores a submission while one runs', async () => {
    const { result } = renderHook(() => useSubmit())
    const first = deferred<SubmitResult>()
    const second = vi.fn(async () => 'jamais')
    let run!: Promise<void>
    act(() => {
      run = result.current.run(() => first.promise)
    })
    await act(() => result.current.run(second))
    expect(second).not.toHaveBeenCalled()
    expect(result.current.submitting).toBe(true)
    await act(async () => {
      first.resolve('Erreur')
      await run
    })
    expect(result.current.failure).toBe('Erreur')
    // Once settled, the next submission runs.
    await act(() => result.current.run(second))
    expect(second).toHaveBeenCalledOnce()
    expect(result.current.failure).toBe('jamais')
  })

  it('ends the submission when the action throws, and rethrows', async () => {
    const { result } = renderHook(() => useSubmit())
    const boom = new Error('réseau')
    await act(async () => {
      await expect(result.current.run(() => Promise.reject(boom))).rejects.toBe(boom)
    })
    expect(result.current.submitting).toBe(false)
    expect(result.current.failure).toBeNull()
    await act(() => result.current.run(async () => 'ensuite'))
    expect(result.current.failure).toBe('ensuite')
  })
})
