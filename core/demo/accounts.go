package demo

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
)

type party struct {
	name, email, siren, ape, capital, legal, cert string
	siret                                         string // the SIREN and the NIC of the establishment, Luhn-valid
	address                                       [3]string
	lat, lon                                      string
	days                                          string // producers: Monday first
	vat                                           bool   // has a VAT number
	bank                                          string // 5-digit bank code
}

// Shops around Annecy (the map's default centre).
var shops = []party{
	{name: "Épicerie du Lac", email: "epicerie-du-lac@demo.primeur.fr", siren: "842615304", siret: "84261530400016", ape: "4721Z", capital: "20000",
		legal: "SARL au capital de 20 000 €, RCS Annecy", address: [3]string{"12 rue Sommeiller", "74000 Annecy", ""},
		lat: "45.9009", lon: "6.1265", vat: true, bank: "18106"},
	{name: "Le Panier des Aravis", email: "panier-des-aravis@demo.primeur.fr", siren: "753218643", siret: "75321864300017", ape: "4721Z", capital: "8000",
		legal: "SAS au capital de 8 000 €, RCS Annecy", address: [3]string{"3 place de l'Église", "74230 Thônes", ""},
		lat: "45.8817", lon: "6.3250", vat: true, bank: "10807"},
	{name: "La Halle de Rumilly", email: "halle-de-rumilly@demo.primeur.fr", siren: "901442871", siret: "90144287100017", ape: "4711D", capital: "50000",
		legal: "SA au capital de 50 000 €, RCS Annecy", address: [3]string{"25 avenue Gantin", "74150 Rumilly", ""},
		lat: "45.8667", lon: "5.9440", vat: true, bank: "30002"},
	{name: "Primeurs du Genevois", email: "primeurs-du-genevois@demo.primeur.fr", siren: "518774203", siret: "51877420300013", ape: "4721Z", capital: "15000",
		legal: "SARL au capital de 15 000 €, RCS Thonon-les-Bains", address: [3]string{"8 rue du Commerce", "74100 Annemasse", ""},
		lat: "46.1934", lon: "6.2342", vat: true, bank: "18106"},
}

// Producers of fruit and vegetables in the Savoies.
var producers = []party{
	{name: "Ferme des Glières", email: "ferme-des-glieres@demo.primeur.fr", siren: "487231557", siret: "48723155700017", ape: "0113Z", capital: "7500",
		legal: "EARL au capital de 7 500 €, RCS Annecy", cert: "Agriculture biologique (FR-BIO-01)",
		address: [3]string{"Lieu-dit Les Mouilles", "74570 Thorens-Glières", ""}, lat: "46.0000", lon: "6.2500",
		days: "1001000", vat: true, bank: "18106"},
	{name: "Vergers du Semnoz", email: "vergers-du-semnoz@demo.primeur.fr", siren: "399046218", siret: "39904621800018", ape: "0124Z", capital: "12000",
		legal: "GAEC au capital de 12 000 €, RCS Annecy", cert: "Haute valeur environnementale",
		address: [3]string{"Route du Semnoz", "74600 Quintal", ""}, lat: "45.8300", lon: "6.0800",
		days: "0100100", vat: true, bank: "10807"},
	{name: "Maraîchers de la Fillière", email: "maraichers-filliere@demo.primeur.fr", siren: "832550610", siret: "83255061000014", ape: "0113Z", capital: "3000",
		legal: "SCEA au capital de 3 000 €, RCS Annecy", cert: "Agriculture biologique (FR-BIO-01)",
		address: [3]string{"150 chemin des Prés", "74570 Groisy", ""}, lat: "46.0100", lon: "6.1700",
		days: "1010100", vat: true, bank: "30002"},
	{name: "Les Jardins d'Alby", email: "jardins-alby@demo.primeur.fr", siren: "910337484", siret: "91033748400018", ape: "0113Z", capital: "1000",
		legal: "Entreprise individuelle, micro-entreprise", cert: "",
		address: [3]string{"Hameau de Chainaz", "74540 Alby-sur-Chéran", ""}, lat: "45.8167", lon: "6.0167",
		days: "0100010", vat: false, bank: "18106"},
}

func seedAccounts(ctx context.Context, tx *sqlx.Tx, _ *store.DB, w *World) error {
	for i, p := range append(append([]party{}, shops...), producers...) {
		shop := i < len(shops)
		u, err := insertParty(ctx, tx, w, i, p, shop)
		if err != nil {
			return err
		}
		if shop {
			w.Shops = append(w.Shops, u)
		} else {
			w.Producers = append(w.Producers, u)
		}
	}
	return nil
}

// insertParty inserts the i-th demo account (i makes its phone number and
// IBAN its own).
func insertParty(ctx context.Context, tx *sqlx.Tx, w *World, i int, p party, shop bool) (accounts.User, error) {
	hash := w.passwordHash
	ms := w.Now.UnixMilli()
	u := accounts.User{
		ID: core.NewID(), Email: p.email, EmailKey: accounts.EmailKey(p.email), Name: p.name,
		PasswordHash: hash, Capital: p.capital, BIC: bicOf(p.bank), APE: p.ape,
		IBAN: FrenchIBAN(p.bank, "00010", fmt.Sprintf("%011d", 10000000+i*7919)), SIRET: p.siret,
		Tel: fmt.Sprintf("04506%05d", 10000+i*731), AddressLine1: p.address[0], AddressLine2: p.address[1],
		AddressLine3: p.address[2], Latitude: p.lat, Longitude: p.lon, Certification: p.cert, Legal: p.legal,
		DeliveryDays: "0000000", CreatedAt: ms, UpdatedAt: ms,
	}
	if p.vat {
		u.TVAIntracom = accounts.FrenchVAT(p.siren)
	}
	if shop {
		u.Type = accounts.Distributor
		u.BillingAddressLine1, u.BillingAddressLine2 = p.address[0], p.address[1]
	} else {
		u.Type = accounts.Producer
		u.DeliveryDays = p.days
		u.BillingMandateAt = &ms
	}
	return u, accounts.Insert(ctx, tx, u)
}

func bicOf(bank string) string {
	switch bank {
	case "10807":
		return "CCBPFRPPANN"
	case "30002":
		return "CRLYFRPPXXX"
	default:
		return "AGRIFRPP881"
	}
}

// FrenchIBAN builds a valid French IBAN from its bank, branch and account
// (the RIB key and the IBAN check digits computed).
func FrenchIBAN(bank, branch, account string) string {
	ribKey := 97 - mod97(bank+branch+account+"00")
	bban := bank + branch + account + fmt.Sprintf("%02d", ribKey)
	check := 98 - mod97(bban+"152700") // "FR00" with F=15, R=27
	return fmt.Sprintf("FR%02d%s", check, bban)
}

func mod97(digits string) int {
	r := 0
	for _, c := range digits {
		r = (r*10 + int(c-'0')) % 97
	}
	return r
}
