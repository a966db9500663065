package facturx

import "encoding/xml"

// The CII elements Primeur writes, in the order of the Factur-X EN 16931
// schema's sequences. Names carry their namespace prefix, declared on the
// root element.

type ciiRoot struct {
	XMLName xml.Name `xml:"rsm:CrossIndustryInvoice"`
	RSM     string   `xml:"xmlns:rsm,attr"`
	RAM     string   `xml:"xmlns:ram,attr"`
	QDT     string   `xml:"xmlns:qdt,attr"`
	UDT     string   `xml:"xmlns:udt,attr"`
	Context struct {
		Process   *idOnly `xml:"ram:BusinessProcessSpecifiedDocumentContextParameter"`
		Guideline idOnly  `xml:"ram:GuidelineSpecifiedDocumentContextParameter"`
	} `xml:"rsm:ExchangedDocumentContext"`
	Document struct {
		ID        string    `xml:"ram:ID"`
		TypeCode  string    `xml:"ram:TypeCode"`
		IssueDate udtDate   `xml:"ram:IssueDateTime"`
		Notes     []ciiNote `xml:"ram:IncludedNote"`
	} `xml:"rsm:ExchangedDocument"`
	Transaction struct {
		Lines      []ciiLine     `xml:"ram:IncludedSupplyChainTradeLineItem"`
		Agreement  ciiAgreement  `xml:"ram:ApplicableHeaderTradeAgreement"`
		Delivery   ciiDelivery   `xml:"ram:ApplicableHeaderTradeDelivery"`
		Settlement ciiSettlement `xml:"ram:ApplicableHeaderTradeSettlement"`
	} `xml:"rsm:SupplyChainTradeTransaction"`
}

type idOnly struct {
	ID string `xml:"ram:ID"`
}

type schemed struct {
	Scheme string `xml:"schemeID,attr,omitempty"`
	Value  string `xml:",chardata"`
}

type udtDate struct {
	Value dateString `xml:"udt:DateTimeString"`
}

type qdtDate struct {
	Value dateString `xml:"qdt:DateTimeString"`
}

type dateString struct {
	Format string `xml:"format,attr"`
	Value  string `xml:",chardata"`
}

func day(s string) udtDate { return udtDate{dateString{"102", date102(s)}} }

type ciiNote struct {
	Content string `xml:"ram:Content"`
	Subject string `xml:"ram:SubjectCode,omitempty"`
}

type ciiLine struct {
	Doc struct {
		LineID string   `xml:"ram:LineID"`
		Note   *ciiNote `xml:"ram:IncludedNote"`
	} `xml:"ram:AssociatedDocumentLineDocument"`
	Product struct {
		Name string `xml:"ram:Name"`
	} `xml:"ram:SpecifiedTradeProduct"`
	Agreement struct {
		NetPrice struct {
			Amount string `xml:"ram:ChargeAmount"`
		} `xml:"ram:NetPriceProductTradePrice"`
	} `xml:"ram:SpecifiedLineTradeAgreement"`
	Delivery struct {
		Quantity struct {
			Unit  string `xml:"unitCode,attr"`
			Value string `xml:",chardata"`
		} `xml:"ram:BilledQuantity"`
	} `xml:"ram:SpecifiedLineTradeDelivery"`
	Settlement struct {
		Tax       ciiTax     `xml:"ram:ApplicableTradeTax"`
		Period    *ciiPeriod `xml:"ram:BillingSpecifiedPeriod"`
		Summation struct {
			Total string `xml:"ram:LineTotalAmount"`
		} `xml:"ram:SpecifiedTradeSettlementLineMonetarySummation"`
	} `xml:"ram:SpecifiedLineTradeSettlement"`
}

type ciiTax struct {
	Calculated  string `xml:"ram:CalculatedAmount,omitempty"`
	TypeCode    string `xml:"ram:TypeCode"`
	Reason      string `xml:"ram:ExemptionReason,omitempty"`
	Basis       string `xml:"ram:BasisAmount,omitempty"`
	Category    string `xml:"ram:CategoryCode"`
	ReasonCode  string `xml:"ram:ExemptionReasonCode,omitempty"`
	RatePercent string `xml:"ram:RateApplicablePercent,omitempty"`
}

type ciiPeriod struct {
	Start udtDate `xml:"ram:StartDateTime"`
	End   udtDate `xml:"ram:EndDateTime"`
}

// schemedID is an element holding one identifier with its scheme.
type schemedID struct {
	ID schemed `xml:"ram:ID"`
}

type ciiParty struct {
	GlobalID         []schemed   `xml:"ram:GlobalID"`
	Name             string      `xml:"ram:Name"`
	Desc             string      `xml:"ram:Description,omitempty"`
	Legal            *schemedID  `xml:"ram:SpecifiedLegalOrganization"`
	Address          *ciiAddress `xml:"ram:PostalTradeAddress"`
	URI              *ciiURI     `xml:"ram:URIUniversalCommunication"`
	TaxRegistrations []schemedID `xml:"ram:SpecifiedTaxRegistration"`
}

type ciiURI struct {
	ID schemed `xml:"ram:URIID"`
}

type ciiAddress struct {
	Postcode string `xml:"ram:PostcodeCode,omitempty"`
	Line1    string `xml:"ram:LineOne,omitempty"`
	Line2    string `xml:"ram:LineTwo,omitempty"`
	Line3    string `xml:"ram:LineThree,omitempty"`
	City     string `xml:"ram:CityName,omitempty"`
	Country  string `xml:"ram:CountryID"`
}

type issuerID struct {
	ID   string   `xml:"ram:IssuerAssignedID"`
	Date *qdtDate `xml:"ram:FormattedIssueDateTime"`
}

type ciiAgreement struct {
	Seller     ciiParty  `xml:"ram:SellerTradeParty"`
	Buyer      ciiParty  `xml:"ram:BuyerTradeParty"`
	BuyerOrder *issuerID `xml:"ram:BuyerOrderReferencedDocument"`
}

type ciiShipTo struct {
	Address ciiAddress `xml:"ram:PostalTradeAddress"`
}

type ciiDelivery struct {
	ShipTo *ciiShipTo `xml:"ram:ShipToTradeParty"`
	Event  struct {
		Date udtDate `xml:"ram:OccurrenceDateTime"`
	} `xml:"ram:ActualDeliverySupplyChainEvent"`
	Despatch *issuerID `xml:"ram:DespatchAdviceReferencedDocument"`
}

type ciiMeans struct {
	TypeCode string `xml:"ram:TypeCode"`
	Info     string `xml:"ram:Information,omitempty"`
	Account  struct {
		IBAN string `xml:"ram:IBANID"`
		Name string `xml:"ram:AccountName,omitempty"`
	} `xml:"ram:PayeePartyCreditorFinancialAccount"`
	Institution *ciiBank `xml:"ram:PayeeSpecifiedCreditorFinancialInstitution"`
}

type ciiBank struct {
	BIC string `xml:"ram:BICID"`
}

type ciiTerms struct {
	Description string   `xml:"ram:Description,omitempty"`
	Due         *udtDate `xml:"ram:DueDateDateTime"`
}

type ciiSettlement struct {
	Currency  string     `xml:"ram:InvoiceCurrencyCode"`
	Means     *ciiMeans  `xml:"ram:SpecifiedTradeSettlementPaymentMeans"`
	Taxes     []ciiTax   `xml:"ram:ApplicableTradeTax"`
	Period    *ciiPeriod `xml:"ram:BillingSpecifiedPeriod"`
	Terms     *ciiTerms  `xml:"ram:SpecifiedTradePaymentTerms"`
	Summation struct {
		LineTotal string `xml:"ram:LineTotalAmount"`
		TaxBasis  string `xml:"ram:TaxBasisTotalAmount"`
		TaxTotal  struct {
			Currency string `xml:"currencyID,attr"`
			Value    string `xml:",chardata"`
		} `xml:"ram:TaxTotalAmount"`
		GrandTotal string `xml:"ram:GrandTotalAmount"`
		DuePayable string `xml:"ram:DuePayableAmount"`
	} `xml:"ram:SpecifiedTradeSettlementHeaderMonetarySummation"`
	Preceding *issuerID `xml:"ram:InvoiceReferencedDocument"`
}

// cii maps a checked Document to its CII elements.
func cii(d Document) ciiRoot {
	var r ciiRoot
	r.RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
	r.RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
	r.QDT = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100"
	r.UDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"
	r.Context.Process = &idOnly{ProcessGoods}
	r.Context.Guideline = idOnly{Guideline}

	r.Document.ID = clean(d.Number)
	r.Document.TypeCode = d.Type
	r.Document.IssueDate = day(d.IssueDate)
	for _, n := range d.Notes {
		if c := clean(n.Content); c != "" {
			r.Document.Notes = append(r.Document.Notes, ciiNote{Content: c, Subject: n.Subject})
		}
	}

	t := &r.Transaction
	for _, l := range d.Lines {
		var x ciiLine
		x.Doc.LineID = clean(l.ID)
		if l.Note != "" {
			x.Doc.Note = &ciiNote{Content: clean(l.Note)}
		}
		x.Product.Name = clean(l.Name)
		x.Agreement.NetPrice.Amount = amount(l.Price)
		x.Delivery.Quantity.Unit = l.Unit
		x.Delivery.Quantity.Value = quantity(l.Quantity)
		x.Settlement.Tax = ciiTax{TypeCode: "VAT", Category: l.Category, RatePercent: categoryRate(l.Category, l.Rate)}
		if l.Date != "" {
			x.Settlement.Period = &ciiPeriod{Start: day(l.Date), End: day(l.Date)}
		}
		x.Settlement.Summation.Total = amount(l.Amount)
		t.Lines = append(t.Lines, x)
	}

	t.Agreement.Seller = party(d.Seller, true)
	t.Agreement.Buyer = party(d.Buyer, false)
	if d.OrderRef != "" {
		t.Agreement.BuyerOrder = &issuerID{ID: clean(d.OrderRef)}
	}
	if d.ShipTo != nil {
		t.Delivery.ShipTo = &ciiShipTo{address(*d.ShipTo)}
	}
	t.Delivery.Event.Date = day(d.DeliveryDate)
	if d.Despatch != "" {
		t.Delivery.Despatch = &issuerID{ID: clean(d.Despatch)}
	}

	s := &t.Settlement
	s.Currency = "EUR"
	if d.IBAN != "" {
		s.Means = &ciiMeans{TypeCode: "58", Info: "Virement SEPA"}
		s.Means.Account.IBAN = clean(d.IBAN)
		s.Means.Account.Name = clean(d.Seller.Name)
		if d.BIC != "" {
			s.Means.Institution = &ciiBank{clean(d.BIC)}
		}
	}
	for _, x := range d.Taxes {
		s.Taxes = append(s.Taxes, ciiTax{
			Calculated: amount(x.Amount), TypeCode: "VAT", Reason: clean(x.ExemptionReason), Basis: amount(x.Basis),
			Category: x.Category, ReasonCode: x.ExemptionCode, RatePercent: categoryRate(x.Category, x.Rate),
		})
	}
	if d.PeriodStart != "" && d.PeriodEnd != "" {
		s.Period = &ciiPeriod{Start: day(d.PeriodStart), End: day(d.PeriodEnd)}
	}
	if d.PaymentTerms != "" || d.DueDate != "" {
		s.Terms = &ciiTerms{Description: clean(d.PaymentTerms)}
		if d.DueDate != "" {
			due := day(d.DueDate)
			s.Terms.Due = &due
		}
	}
	m := &s.Summation
	m.LineTotal = amount(d.TotalHT)
	m.TaxBasis = amount(d.TotalHT)
	m.TaxTotal.Currency, m.TaxTotal.Value = "EUR", amount(d.TotalVAT)
	m.GrandTotal = amount(d.TotalTTC)
	m.DuePayable = amount(d.TotalTTC)
	if d.Preceding != nil {
		s.Preceding = &issuerID{ID: clean(d.Preceding.Number), Date: &qdtDate{dateString{"102", date102(d.Preceding.Date)}}}
	}
	return r
}

// party maps the seller (seller true) or the buyer. Its electronic
// address (BT-34, BT-49) is its SIREN in the French directory's scheme
// 0225, or its e-mail address.
func party(p Party, seller bool) ciiParty {
	x := ciiParty{Name: clean(p.Name)}
	if p.SIRET != "" {
		x.GlobalID = append(x.GlobalID, schemed{"0009", clean(p.SIRET)})
	}
	if seller {
		x.Desc = clean(p.Legal)
	}
	if p.SIREN != "" {
		x.Legal = &schemedID{schemed{"0002", p.SIREN}}
	}
	a := address(p.Address)
	x.Address = &a
	switch {
	case p.SIREN != "":
		x.URI = &ciiURI{schemed{"0225", p.SIREN}}
	case p.Email != "":
		x.URI = &ciiURI{schemed{"EM", clean(p.Email)}}
	}
	reg := func(scheme, id string) {
		x.TaxRegistrations = append(x.TaxRegistrations, schemedID{schemed{scheme, clean(id)}})
	}
	switch {
	case p.VAT != "":
		reg("VA", p.VAT)
	case seller && p.SIRET != "":
		// A seller under the franchise en base has no VAT number: its
		// tax registration (BT-32) is its SIRET (BR-E-02).
		reg("FC", p.SIRET)
	}
	return x
}

func address(a Address) ciiAddress {
	x := ciiAddress{Postcode: clean(a.Postcode), City: clean(a.City), Country: a.Country}
	if x.Country == "" {
		x.Country = "FR"
	}
	for i, l := range a.Lines {
		switch i {
		case 0:
			x.Line1 = clean(l)
		case 1:
			x.Line2 = clean(l)
		case 2:
			x.Line3 = clean(l)
		}
	}
	return x
}
