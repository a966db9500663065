import { Anchor, Container, List, Stack, Table, Text, Title } from '@mantine/core'
import { Link } from 'wouter'
import { AccessibilityContact } from './AccessibilityContact'

/**
 * What the statement says about its own tests (PRODUCT §2 "Accessibility
 * statement"): the tools of the automated gate (ui/e2e/a11y.spec.ts) and
 * of the keyboard journey (ui/e2e/keyboard.spec.ts), and the screens they
 * visit. When the gate changes, this changes in the same commit.
 */
export const STATEMENT = {
  date: '26 novembre 2026',
  axe: 'axe-core 4.14 (@axe-core/playwright), règles WCAG 2.1 niveaux A et AA',
  browser: 'Chromium 156 (Debian), piloté par Playwright, en 1440 × 900 et en 390 × 844 (téléphone)',
  pages: [
    'Accueil public : connexion, inscription (magasin, producteur), mot de passe oublié',
    'À propos, page introuvable et cette déclaration',
    'Tableau de bord des deux rôles, avec la carte, les statistiques, le formulaire de profil et les activités',
    "Tableau de bord d'un nouveau compte (premiers pas, confirmation de l'adresse email)",
    'Planification des besoins du magasin (grille, volet de droite, ajout de besoins)',
    "Besoins d'un magasin vus par un producteur (proposition, engagements)",
    'Réassort (évolution des stocks et conseils)',
    "Livraisons et réceptions des deux rôles (bon de livraison, demande d'avoir, examen d'une demande)",
    'Paiements des deux rôles (à payer, à encaisser)',
  ],
} as const

/**
 * Déclaration d'accessibilité (RGAA 4.1 model): conformity status, test
 * results, what is not accessible, exemptions, how the statement was made,
 * feedback and contact (the operator's address, AccessibilityContact) and
 * remedies. Public, linked from every page's footer.
 */
export function Accessibility() {
  return (
    <Container component="main" id="contenu" size="md" py="lg">
      <Stack gap="md">
        <Title order={1}>Déclaration d'accessibilité</Title>
        <Text>
          Primeur s'engage à rendre son service accessible, conformément à l'article 47 de la loi n° 2005-102 du 11
          février 2005. Cette déclaration d'accessibilité s'applique à l'application web Primeur, version v1.0.4 :
          toutes ses pages, publiques et connectées, pour les magasins et les producteurs.
        </Text>

        <Title order={2}>État de conformité</Title>
        <Text>
          Primeur est <strong>partiellement conforme</strong> avec le référentiel général d'amélioration de
          l'accessibilité (RGAA), version 4.1, en raison des non-conformités énumérées ci-dessous.
        </Text>

        <Title order={2}>Résultats des tests</Title>
        <Text>
          Aucun audit complet des 106 critères du RGAA n'a encore été mené par un auditeur : le taux de conformité au
          sens du RGAA n'est donc pas calculé. Les vérifications faites sont les suivantes, et sont rejouées à chaque
          version :
        </Text>
        <List spacing="xs">
          <List.Item>
            Un contrôle automatique bloquant : chaque page listée plus bas, pour chaque rôle, en affichage bureau et
            téléphone, passe les règles WCAG 2.1 A et AA d'axe-core ; une seule violation jugée «&nbsp;grave&nbsp;» ou
            «&nbsp;critique&nbsp;» empêche la version de sortir. Résultat : aucune violation grave ou critique, et
            aucune violation de moindre importance lors de l'établissement de cette déclaration (26 écrans, deux
            tailles).
          </List.Item>
          <List.Item>
            Un parcours au clavier seul (Tab, Maj+Tab, Entrée, Espace, flèches) : un magasin planifie un besoin, un
            producteur propose, le magasin accepte puis examine une demande d'avoir ; à chaque étape l'élément qui a le
            focus est visible et entouré d'un indicateur de focus. Résultat : parcours réalisable.
          </List.Item>
          <List.Item>
            La grille de planification des besoins, selon le motif «&nbsp;Data Grid&nbsp;» de WAI-ARIA : elle ne compte
            qu'un arrêt de tabulation ; Tab y entre sur la cellule choisie et en sort vers le volet de détail, la
            sélection gardée ; les flèches, Origine, Fin et Page précédente ou suivante vont d'une cellule à l'autre,
            chacune annoncée par son produit, son mois et sa quantité ; Entrée, F2 ou un chiffre tapé modifient la
            quantité comme dans un tableur, Entrée l'enregistre et Échap l'annule en rendant le focus à la cellule ; la
            vue d'un producteur, en lecture seule, se parcourt de même. Vérifié dans Chromium : un Tab entre dans la
            grille, les flèches s'y déplacent, une quantité tapée puis validée par Entrée est relue après rechargement,
            un Tab en sort. Résultat : conforme (critère 12.13).
          </List.Item>
          <List.Item>
            Les graphiques (statistiques des achats, progression, stock de chaque produit au réassort) : chacun est
            résumé par une phrase (période, totaux, mois le plus haut) et ses valeurs sont données dans un tableau, en
            euros ou dans l'unité du produit, derrière «&nbsp;Voir les valeurs&nbsp;» (un bouton à côté de chaque petit
            graphique du réassort). Vérifié par des tests unitaires du contenu des tableaux. Résultat : conforme
            (critères 1.3 et 1.4).
          </List.Item>
          <List.Item>
            Les contrastes des couleurs du thème : texte d'au moins 4,5:1 (texte courant, liens, messages d'erreur,
            indications en gris, texte blanc sur le vert), indicateur de focus de 3 pixels à 7,9:1 sur le blanc.
          </List.Item>
        </List>

        <Title order={2}>Contenus non accessibles</Title>
        <Title order={3}>Non-conformités</Title>
        <List spacing="xs">
          <List.Item>
            Les notifications temporaires se ferment après 4 secondes (critère 13.1) ; les messages d'enregistrement et
            de refus des formulaires restent affichés et sont annoncés, mais certaines confirmations ne sont données que
            par ces notifications.
          </List.Item>
          <List.Item>
            Les documents PDF (bons de livraison, factures, avoirs) ne sont pas balisés pour les technologies
            d'assistance (critère 13.3).
          </List.Item>
          <List.Item>
            Les règles d'axe-core d'importance « modérée » ou « mineure » ne bloquent pas encore une version ; les pages
            n'ont pas été testées avec un lecteur d'écran (NVDA, VoiceOver, TalkBack) ni avec un agrandissement du texte
            à 200 %.
          </List.Item>
          <List.Item>
            Sur la carte, le déplacement par glisser se fait à la souris ; au clavier, les boutons de zoom et la liste
            des magasins, qui offre les mêmes actions, le remplacent.
          </List.Item>
        </List>
        <Title order={3}>Dérogations pour charge disproportionnée</Title>
        <Text>Aucune.</Text>
        <Title order={3}>Contenus non soumis à l'obligation d'accessibilité</Title>
        <Text>
          La carte des magasins et des producteurs, dont l'information essentielle (les magasins, leur ville, l'accès à
          leurs besoins) est aussi donnée par la liste des magasins.
        </Text>

        <Title order={2}>Établissement de cette déclaration d'accessibilité</Title>
        <Text>Cette déclaration a été établie le {STATEMENT.date}.</Text>
        <Title order={3}>Technologies utilisées pour la réalisation du site</Title>
        <List>
          <List.Item>HTML5, CSS, JavaScript (React), WAI-ARIA, SVG</List.Item>
        </List>
        <Title order={3}>Environnement de test</Title>
        <List>
          <List.Item>{STATEMENT.browser}</List.Item>
        </List>
        <Title order={3}>Outils pour évaluer l'accessibilité</Title>
        <List>
          <List.Item>{STATEMENT.axe}</List.Item>
          <List.Item>Parcours au clavier automatisé (Playwright), contrôle du focus visible à chaque étape</List.Item>
          <List.Item>Calcul des contrastes du thème selon la formule des WCAG 2.1 (tests unitaires)</List.Item>
        </List>
        <Title order={3}>Pages du site ayant fait l'objet de la vérification de conformité</Title>
        <Table withTableBorder>
          <Table.Tbody>
            {STATEMENT.pages.map((page) => (
              <Table.Tr key={page}>
                <Table.Td>{page}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>

        <Title order={2}>Retour d'information et contact</Title>
        <Text>
          Si vous n'arrivez pas à accéder à un contenu ou à un service, contactez l'exploitant de cette plateforme
          Primeur pour être orienté vers une alternative accessible ou obtenir le contenu sous une autre forme. Indiquez
          la page concernée, ce que vous cherchiez à faire et votre équipement (navigateur, technologie d'assistance).
        </Text>
        <AccessibilityContact />

        <Title order={2}>Voies de recours</Title>
        <Text>
          Si vous constatez un défaut d'accessibilité vous empêchant d'accéder à un contenu ou à une fonctionnalité du
          site, que vous nous le signalez et que vous ne parvenez pas à obtenir une réponse de notre part, vous êtes en
          droit de faire parvenir vos doléances ou une demande de saisine au Défenseur des droits. Plusieurs moyens sont
          à votre disposition :
        </Text>
        <List spacing="xs">
          <List.Item>
            écrire un message au Défenseur des droits (formulaire en ligne sur defenseurdesdroits.fr) ;
          </List.Item>
          <List.Item>contacter le délégué du Défenseur des droits dans votre région ;</List.Item>
          <List.Item>
            envoyer un courrier par la poste (gratuit, ne pas mettre de timbre) : Défenseur des droits, Libre réponse
            71120, 75342 Paris CEDEX 07.
          </List.Item>
        </List>
        <Anchor component={Link} href="/">
          Retour à l'accueil
        </Anchor>
      </Stack>
    </Container>
  )
}
