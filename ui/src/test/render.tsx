// Test helper: renders a tree inside the app's providers with an in-memory
// location, and exposes the current path.
import { MantineProvider } from '@mantine/core'
import { DatesProvider } from '@mantine/dates'
import { Notifications } from '@mantine/notifications'
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { datesSettings, theme } from '../theme'

export function renderWithProviders(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const location = memoryLocation({ path, record: true })
  const result = render(
    <MantineProvider theme={theme} env="test">
      <DatesProvider settings={datesSettings}>
        <Notifications />
        <Router hook={location.hook}>{ui}</Router>
      </DatesProvider>
    </MantineProvider>,
  )
  return { ...result, location, currentPath: () => location.history.at(-1) }
}
