package daemon

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/images"
	"primeur/core/supplied"
)

// Producers' own products (issue 39, PRODUCT §3 "Producers' products"):
// the producer's list ("Mes produits") and its photos, and a producer's
// products as shops see them. Behind endpoints of their own, not in the
// user load.

// maxPhotoBody bounds a photo's body: the file in base64 (images.MaxBytes
// once decoded) and the JSON around it.
const maxPhotoBody = images.MaxBytes*4/3 + 4096

// SuppliedProductBody is a product as the producer's form sends it.
type SuppliedProductBody struct {
	ProductType  string   `json:"productType" required:"false" maxLength:"200" doc:"The catalogue product type it is of (GET /public/other/products.csv lists them). Needed" example:"tomme-de-savoie"`
	Name         string   `json:"name" required:"false" maxLength:"1000" doc:"Its name (100 characters at most). Needed" example:"Tomme de Savoie fermière"`
	Packaging    string   `json:"packaging" required:"false" maxLength:"1000" doc:"The sale unit's name (40 characters at most); empty: sold in the type's unit" example:"pièce"`
	UnitQuantity float64  `json:"unitQuantity" required:"false" doc:"What one sale unit holds in the type's unit: more than 0, 2 decimals, whole for a counted unit; 1 without packaging" example:"1.5"`
	Labels       []string `json:"labels" required:"false" maxItems:"20" doc:"Its labels: ab, conversion, label-rouge, aop, igp, hve, nature-progres" example:"[\"aop\"]"`
	Certifier    string   `json:"certifier" required:"false" maxLength:"100" doc:"The organic certifier's code number (FR-BIO-01), needed with ab or conversion" example:""`
	Months       []int    `json:"months" required:"false" maxItems:"12" doc:"Months it is available, 1 to 12; at least one" example:"[1,2,3,10,11,12]"`
	RefPrice     float64  `json:"refPrice" required:"false" doc:"Reference price HT in EUR per unit of the type, 0 for none" example:"14.5"`
}

func (b SuppliedProductBody) input() supplied.Input {
	return supplied.Input{Type: b.ProductType, Name: b.Name, Packaging: b.Packaging, UnitQuantity: b.UnitQuantity,
		Labels: b.Labels, Certifier: b.Certifier, Months: b.Months, RefPrice: b.RefPrice}
}

// CreateSuppliedProductInput lists a new product.
type CreateSuppliedProductInput struct {
	Body SuppliedProductBody
}

// SuppliedProductPath names one of the producer's products.
type SuppliedProductPath struct {
	ProductID string `path:"productId" maxLength:"64" doc:"The product's id"`
}

// UpdateSuppliedProductInput changes one of the producer's products.
type UpdateSuppliedProductInput struct {
	SuppliedProductPath
	Body SuppliedProductBody
}

// SuppliedPhotoInput is a product's photo.
type SuppliedPhotoInput struct {
	SuppliedProductPath
	Body struct {
		Photo []byte `json:"photo" required:"false" doc:"The photo, base64: JPEG, PNG or WebP, 5 MB and 30 million pixels at most; kept as JPEGs of 160, 480 and 1200 px at most, without its metadata. Needed"`
	}
}

// SuppliedProductOutput is one product.
type SuppliedProductOutput struct {
	Body supplied.Product
}

// FindSuppliedInput is what a shop looks for among producers' products.
type FindSuppliedInput struct {
	ProductType string  `query:"productType" maxLength:"200" doc:"A catalogue product type: producers selling it" example:"tomme-de-savoie"`
	Family      string  `query:"family" maxLength:"200" doc:"A family of types: producers selling one of them" example:"fromages"`
	Label       string  `query:"label" maxLength:"100" doc:"A label its products carry: ab, conversion, label-rouge, aop, igp, hve, nature-progres"`
	Km          float64 `query:"km" doc:"The farthest road distance from the shop, km (0: any)" example:"50"`
}

// FoundProducersOutput is the producers found, nearest first.
type FoundProducersOutput struct {
	Body []supplied.Found
}

// SuppliedProductsOutput is a producer's products, by name.
type SuppliedProductsOutput struct {
	Body []supplied.Product
}

func (d *Daemon) registerSupplied(api huma.API) {
	tags := []string{"Products"}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity}
	huma.Register(api, huma.Operation{
		OperationID: "list-supplied-products", Method: http.MethodGet, Path: "/supplied-products", Tags: tags,
		Summary:     "The producer's own products, by name (producers)",
		Description: "What it sells, each of a catalogue type, without those it retired.",
		Errors:      errs,
	}, d.listSupplied)
	huma.Register(api, huma.Operation{
		OperationID: "create-supplied-product", Method: http.MethodPost, Path: "/supplied-products", Tags: tags,
		Summary: "List a new product of the producer's (producers)",
		Description: "A product of a catalogue type, with its name, sale unit and what one holds in the type's unit, " +
			"labels, months and reference price (PRODUCT §3 \"Producers' products\"); each rule refuses in French " +
			"(422) and 409 past 500 products. Answers the product.",
		DefaultStatus: http.StatusCreated,
		Errors:        append(errs, http.StatusConflict),
	}, d.createSupplied)
	huma.Register(api, huma.Operation{
		OperationID: "update-supplied-product", Method: http.MethodPut, Path: "/supplied-products/{productId}", Tags: tags,
		Summary:     "Change one of the producer's products (producers)",
		Description: "The same fields and rules as its creation; its type may change only to a type of the same unit.",
		Errors:      append(errs, http.StatusNotFound),
	}, d.updateSupplied)
	huma.Register(api, huma.Operation{
		OperationID: "retire-supplied-product", Method: http.MethodDelete, Path: "/supplied-products/{productId}", Tags: tags,
		Summary: "Take one of the producer's products off sale (producers)",
		Description: "It leaves the producer's list and page; proposals and documents that named it keep its name " +
			"and photo.",
		DefaultStatus: http.StatusNoContent,
		Errors:        append(errs, http.StatusNotFound),
	}, d.retireSupplied)
	huma.Register(api, huma.Operation{
		OperationID: "set-supplied-product-photo", Method: http.MethodPut, Path: "/supplied-products/{productId}/photo", Tags: tags,
		Summary: "Give one of the producer's products its photo (producers)",
		Description: "Decoded as an image and made into three JPEGs (160, 480 and 1200 px at most), replacing the " +
			"previous photo; anything else is refused (422). Answers the product, its photo's URLs under " +
			"/print/product-photo/.",
		MaxBodyBytes: maxPhotoBody,
		Errors:       append(errs, http.StatusNotFound, http.StatusRequestEntityTooLarge, http.StatusServiceUnavailable),
	}, d.setSuppliedPhoto)
	huma.Register(api, huma.Operation{
		OperationID: "delete-supplied-product-photo", Method: http.MethodDelete, Path: "/supplied-products/{productId}/photo", Tags: tags,
		Summary:     "Remove the photo of one of the producer's products (producers)",
		Description: "Answers the product.",
		Errors:      append(errs, http.StatusNotFound),
	}, d.deleteSuppliedPhoto)
	huma.Register(api, huma.Operation{
		OperationID: "producer-supplied-products", Method: http.MethodGet, Path: "/producers/{producerId}/supplied-products", Tags: tags,
		Summary: "A producer's products, as its page shows them to shops",
		Description: "Its live products by name, with their labels and photos; an id that is no producer's answers " +
			"an empty list; a producer whose account is closed, 404 saying so.",
		Errors: append(errs, http.StatusNotFound),
	}, d.producerSupplied)
	huma.Register(api, huma.Operation{
		OperationID: "find-supplied-products", Method: http.MethodGet, Path: "/supplied-products/search", Tags: tags,
		Summary: "Producers whose products match a type or family, a label and a distance (shops)",
		Description: "Nearest to the shop first (road distance: great-circle × 1.3), then by name; a producer " +
			"not placed on the map comes last, and is left out when a distance is asked. Each with its matching " +
			"products; at most 50 producers.",
		Errors: errs,
	}, d.findSupplied)
	huma.Register(api, huma.Operation{
		OperationID: "supplied-product-types", Method: http.MethodGet, Path: "/supplied-products/types", Tags: tags,
		Summary: "The product types producers sell with a label within a distance (shops)",
		Description: "The planner's filter (PRODUCT §2 \"Needs planner\"): the catalogue types of live products with the " +
			"label, of the family, sold by producers within the road distance of the shop (a producer not placed " +
			"is left out once a distance is asked), sorted. Refused as the search is.",
		Errors: errs,
	}, d.suppliedTypes)
}

// SuppliedTypesInput is the planner's filter.
type SuppliedTypesInput struct {
	Family string  `query:"family" maxLength:"200" doc:"A family of types" example:"fromages"`
	Label  string  `query:"label" maxLength:"100" doc:"A label the products carry: ab, conversion, label-rouge, aop, igp, hve, nature-progres"`
	Km     float64 `query:"km" doc:"The farthest road distance from the shop, km (0: any)" example:"50"`
}

// SuppliedTypesOutput is the types found.
type SuppliedTypesOutput struct {
	Body struct {
		Types []string `json:"types" doc:"Catalogue type ids, sorted"`
	}
}

func (d *Daemon) suppliedTypes(ctx context.Context, in *SuppliedTypesInput) (*SuppliedTypesOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	types, err := supplied.Types(ctx, d.db, u.ID, supplied.Filter{Family: in.Family, Label: in.Label, MaxKm: in.Km})
	if err != nil {
		return nil, inQuery(err)
	}
	out := &SuppliedTypesOutput{}
	out.Body.Types = types
	return out, nil
}

func (d *Daemon) findSupplied(ctx context.Context, in *FindSuppliedInput) (*FoundProducersOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	found, err := supplied.Find(ctx, d.db, u.ID, supplied.Filter{Type: in.ProductType, Family: in.Family,
		Label: in.Label, MaxKm: in.Km})
	if err != nil {
		return nil, inQuery(err)
	}
	return &FoundProducersOutput{Body: found}, nil
}

func (d *Daemon) listSupplied(ctx context.Context, _ *struct{}) (*SuppliedProductsOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	ps, err := supplied.List(ctx, d.db, u.ID)
	if err != nil {
		return nil, err
	}
	return &SuppliedProductsOutput{Body: ps}, nil
}

func (d *Daemon) producerSupplied(ctx context.Context, in *ProducerPath) (*SuppliedProductsOutput, error) {
	ps, err := supplied.Page(ctx, d.db, in.ProducerID)
	if err != nil {
		return nil, err
	}
	return &SuppliedProductsOutput{Body: ps}, nil
}

func (d *Daemon) createSupplied(ctx context.Context, in *CreateSuppliedProductInput) (*SuppliedProductOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	return d.suppliedTx(ctx, func(tx *sqlx.Tx) (supplied.Product, error) {
		return supplied.Create(ctx, tx, u.ID, in.Body.input(), d.now())
	})
}

func (d *Daemon) updateSupplied(ctx context.Context, in *UpdateSuppliedProductInput) (*SuppliedProductOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	return d.suppliedTx(ctx, func(tx *sqlx.Tx) (supplied.Product, error) {
		return supplied.Update(ctx, tx, u.ID, in.ProductID, in.Body.input(), d.now())
	})
}

func (d *Daemon) retireSupplied(ctx context.Context, in *SuppliedProductPath) (*struct{}, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	_, err = inTx(ctx, d, func(tx *sqlx.Tx) (struct{}, error) {
		return struct{}{}, supplied.Retire(ctx, tx, u.ID, in.ProductID, d.now())
	})
	return nil, err
}

func (d *Daemon) setSuppliedPhoto(ctx context.Context, in *SuppliedPhotoInput) (*SuppliedProductOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	// The images are made before the transaction: the expensive part.
	ph, err := supplied.MakePhoto(ctx, "photo", in.Body.Photo)
	if err != nil {
		return nil, err
	}
	return d.suppliedTx(ctx, func(tx *sqlx.Tx) (supplied.Product, error) {
		return supplied.SetPhoto(ctx, tx, u.ID, in.ProductID, ph, d.now())
	})
}

func (d *Daemon) deleteSuppliedPhoto(ctx context.Context, in *SuppliedProductPath) (*SuppliedProductOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	return d.suppliedTx(ctx, func(tx *sqlx.Tx) (supplied.Product, error) {
		return supplied.DeletePhoto(ctx, tx, u.ID, in.ProductID, d.now())
	})
}

func (d *Daemon) suppliedTx(ctx context.Context, op func(tx *sqlx.Tx) (supplied.Product, error)) (*SuppliedProductOutput, error) {
	p, err := inTx(ctx, d, op)
	if err != nil {
		return nil, err
	}
	return &SuppliedProductOutput{Body: p}, nil
}

// printProductPhoto serves GET /print/product-photo/{imageId}: an image
// of a product's photo, to anyone signed in. An image never changes (a new
// photo has new ids), so it is cached for a year and its ETag is its id:
// a browser asking again with it gets 304.
func (d *Daemon) printProductPhoto(w http.ResponseWriter, r *http.Request) {
	if _, err := d.requestUser(r); err != nil {
		d.documentError(w, r, err)
		return
	}
	id := r.PathValue("imageId")
	etag := strconv.Quote(id)
	h := w.Header()
	if match := r.Header.Get("If-None-Match"); match != "" && (match == etag || match == "W/"+etag) {
		// Only an id that is a product's photo ever got this ETag.
		h.Set("ETag", etag)
		h.Set("Cache-Control", photoCache)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	img, err := supplied.PhotoImage(r.Context(), d.db, id)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	h.Set("Content-Type", img.MediaType)
	h.Set("Content-Length", strconv.Itoa(len(img.Data)))
	h.Set("ETag", etag)
	h.Set("Cache-Control", photoCache)
	h.Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", img.ID+img.Ext()))
	_, _ = w.Write(img.Data)
}

// photoCache is how long a product's photo is kept: a year, never
// revalidated (its URL names the image), by the browser only (the
// session decides who sees it).
const photoCache = "private, max-age=31536000, immutable"
