// The dashboard's chart library is asked for with the dashboard's code
// (screens.ts SCREENS.dashboard, issue 42), not once the chart has rendered
// and neared the view. A file of its own: the mock of the library below
// would hold for every test of screens.test.ts.
import { expect, it, vi } from 'vitest'

const asked = vi.hoisted(() => ({ library: 0 }))
vi.mock('./components/uplot', () => {
  asked.library++
  return { draw: () => null }
})

import { SCREENS } from './screens'

it('asks for the chart library once the dashboard’s code has come, not with another screen’s', async () => {
  await SCREENS.disPayments()
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(asked.library).toBe(0)
  await SCREENS.dashboard()
  await vi.waitFor(() => expect(asked.library).toBe(1))
})
