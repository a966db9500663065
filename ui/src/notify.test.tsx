import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { App } from './App'
import { notifyError, progress } from './notify'

describe('toasts are said (WCAG 4.1.3)', () => {
  it('shows them in a polite live region there from the start, statuses as status and failures as alerts', async () => {
    window.history.pushState(null, '', '/about')
    render(<App />)
    await screen.findByRole('heading', { name: 'About' })
    const regions = document.querySelectorAll('.mantine-Notifications-root')
    expect(regions.length).toBeGreaterThan(0)
    regions.forEach((region) => expect(region).toHaveAttribute('aria-live', 'polite'))

    let toast!: ReturnType<typeof progress>
    act(() => {
      toast = progress('Modification en cours')
    })
    const running = await screen.findByRole('status', { name: '' })
    expect(running.closest('[aria-live="polite"]')).not.toBeNull()
    act(() => toast.success('Modification effectuée'))
    expect(await screen.findByText('Modification effectuée')).toBeInTheDocument()
    expect(screen.getByText('Modification effectuée').closest('[role="status"]')).not.toBeNull()

    act(() => notifyError('Echec de la modification', 'Refusé'))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Echec de la modification')
  })

  it('puts a skip link first and the statement in the footer of every page', async () => {
    window.history.pushState(null, '', '/about')
    render(<App />)
    const links = await screen.findAllByRole('link')
    expect(links[0]).toHaveAccessibleName('Aller au contenu')
    const footer = screen.getByRole('contentinfo', { name: 'Pied de page' })
    expect(footer).toContainElement(screen.getByRole('link', { name: 'Accessibilité : partiellement conforme' }))
    expect(screen.getByRole('link', { name: 'Accessibilité : partiellement conforme' })).toHaveAttribute(
      'href',
      '/accessibilite',
    )
    expect(document.getElementById('contenu')?.tagName).toBe('MAIN')
  })
})
