import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { App } from './App'
import { notifyError, progress } from './notify'
import { asPhone } from './test/phone'

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

    act(() => notifyError('Échec de la modification', 'Refusé'))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Échec de la modification')
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

  it('draws them at the top right of a large screen, and at the bottom of a phone, clear of a dialog’s header', async () => {
    // Where a toast goes: the position of the container it is drawn in.
    const shown = async (title: string) => {
      act(() => notifyError(title))
      const toast = (await screen.findByText(title)).closest('[role="alert"]')
      return toast?.closest('.mantine-Notifications-root')?.getAttribute('data-position')
    }
    window.history.pushState(null, '', '/about')
    const large = render(<App />)
    await screen.findByRole('heading', { name: 'About' })
    expect(await shown('Échec sur un grand écran')).toBe('top-right')
    large.unmount()

    asPhone()
    render(<App />)
    await screen.findByRole('heading', { name: 'About' })
    expect(await shown('Échec sur un téléphone')).toBe('bottom-center')
    // Still in a polite live region, as on a large screen.
    expect(screen.getByText('Échec sur un téléphone').closest('[aria-live="polite"]')).not.toBeNull()
  })
})
