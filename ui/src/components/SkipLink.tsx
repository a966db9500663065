/**
 * "Aller au contenu" (RGAA 12.7): the first stop of the keyboard, shown
 * when focused; it moves the focus to the page's main region (`#contenu`)
 * without touching the address (the emailed links keep their token there).
 */
export function SkipLink() {
  return (
    <a
      href="#contenu"
      className="primeur-skip-link"
      onClick={(event) => {
        const main = document.getElementById('contenu')
        if (!main) return
        event.preventDefault()
        main.setAttribute('tabindex', '-1')
        main.focus()
      }}
    >
      Aller au contenu
    </a>
  )
}
