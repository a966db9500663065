import { act, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { notifyError, progress } from '../notify'
import { renderWithProviders } from '../test/render'
import { LiveRegion } from './LiveRegion'
import { announce } from './announce'

describe('status messages announced', () => {
  it('says the progress and the success of an action in the polite region, the failure as an alert', async () => {
    renderWithProviders(<LiveRegion />)
    const region = screen.getByTestId('live-region')
    expect(region).toHaveAttribute('role', 'status')
    expect(region).toHaveAttribute('aria-live', 'polite')
    expect(region).toBeEmptyDOMElement()

    let toast!: ReturnType<typeof progress>
    act(() => {
      toast = progress('Modification en cours')
    })
    expect(region).toHaveTextContent('Modification en cours')
    act(() => toast.success('Modification effectuée', 'Besoin enregistré'))
    expect(region).toHaveTextContent('Modification effectuée. Besoin enregistré')

    act(() => notifyError('Echec de la modification', 'Refusé'))
    expect(await screen.findByRole('alert')).toHaveTextContent('Echec de la modification')
    // The failure is not repeated politely.
    expect(region).toHaveTextContent('Modification effectuée. Besoin enregistré')
  })

  it('says the same text again as a new node', () => {
    renderWithProviders(<LiveRegion />)
    const region = screen.getByTestId('live-region')
    act(() => announce('Enregistré'))
    const first = region.firstElementChild
    act(() => announce('Enregistré'))
    expect(region).toHaveTextContent('Enregistré')
    expect(region.firstElementChild).not.toBe(first)
    act(() => announce('   '))
    expect(region).toHaveTextContent('Enregistré')
  })
})
