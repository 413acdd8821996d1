"""Word lists the generator draws from (names, streets, trades, places, filler text).

Everything here is invented or common-noun material written for geofocus; the
real place names (cities, postcodes, a few well-known Oldenburg streets) are
public geography.  Lists are tuples so that indexing by a hash is stable.
"""

from __future__ import annotations

# --- German -----------------------------------------------------------------

SURNAMES = (
    "Meyer", "Janssen", "Müller", "Schulz", "Brinkmann", "Oltmanns", "Hinrichs", "Gerdes",
    "Wübbenhorst", "Eilers", "Harms", "Ahlers", "Behrens", "Lüken", "Tapken", "Onken",
    "Schröder", "Wilken", "Köhler", "Rademacher", "Böhmer", "Frerichs", "Kruse", "Stolle",
    "Hagen", "Bruns", "Lammers", "Peters", "Dirks", "Vosgerau", "Bischoff", "Fokken",
    "Hoting", "Renken", "Claußen", "Meiners", "Popken", "Thye", "Weerts", "Ulrichs",
)
FIRSTNAMES = (
    "Anke", "Jens", "Heike", "Frauke", "Hauke", "Insa", "Tjark", "Wiebke", "Bernd", "Gesa",
    "Karsten", "Silke", "Timo", "Meike", "Lars", "Maren", "Uwe", "Telse", "Jan", "Birte",
)

# (host token, display name, section words, anchor words for services)
TRADES_DE = (
    ("zahnarzt", "Zahnarztpraxis", ("behandlungen", "prophylaxe", "implantate", "team")),
    ("physio", "Physiotherapie", ("leistungen", "krankengymnastik", "massage", "team")),
    ("baeckerei", "Bäckerei", ("brot", "kuchen", "filialen", "angebote")),
    ("tischlerei", "Tischlerei", ("moebel", "innenausbau", "referenzen", "fenster")),
    ("cafe", "Café", ("speisekarte", "fruehstueck", "events", "galerie")),
    ("restaurant", "Restaurant", ("speisekarte", "mittagstisch", "feiern", "galerie")),
    ("kanzlei", "Rechtsanwaltskanzlei", ("rechtsgebiete", "anwaelte", "mandanten", "aktuelles")),
    ("steuerberatung", "Steuerberatung", ("leistungen", "mandanten", "karriere", "downloads")),
    ("friseur", "Friseursalon", ("preise", "team", "termine", "galerie")),
    ("autohaus", "Autohaus", ("neuwagen", "gebrauchtwagen", "werkstatt", "angebote")),
    ("elektro", "Elektrotechnik", ("leistungen", "smart-home", "referenzen", "notdienst")),
    ("apotheke", "Apotheke", ("sortiment", "service", "notdienst", "team")),
    ("fahrschule", "Fahrschule", ("fuehrerscheine", "kurse", "preise", "team")),
    ("buchhandlung", "Buchhandlung", ("neuheiten", "lesungen", "bestellen", "tipps")),
    ("blumen", "Blumenhaus", ("straeusse", "hochzeit", "trauer", "galerie")),
    ("optik", "Augenoptik", ("brillen", "kontaktlinsen", "sehtest", "marken")),
    ("hausarzt", "Hausarztpraxis", ("sprechzeiten", "leistungen", "impfungen", "team")),
    ("tierarzt", "Tierarztpraxis", ("leistungen", "notdienst", "team", "tipps")),
    ("malerbetrieb", "Malerbetrieb", ("leistungen", "referenzen", "farben", "team")),
    ("reisebuero", "Reisebüro", ("reisen", "angebote", "last-minute", "team")),
    ("fitness", "Fitnessstudio", ("kurse", "preise", "trainer", "probetraining")),
    ("hotel", "Hotel", ("zimmer", "preise", "tagungen", "galerie")),
    ("musikschule", "Musikschule", ("unterricht", "lehrer", "konzerte", "preise")),
    ("immobilien", "Immobilien", ("angebote", "verkaufen", "vermieten", "team")),
)
CLUBS_DE = (
    ("tv", "Turnverein", ("abteilungen", "training", "mitgliedschaft", "termine")),
    ("sv", "Sportverein", ("fussball", "handball", "jugend", "termine")),
    ("chor", "Chor", ("proben", "konzerte", "mitsingen", "archiv")),
    ("schuetzenverein", "Schützenverein", ("schiessstand", "feste", "vorstand", "termine")),
    ("kleingarten", "Kleingartenverein", ("gaerten", "satzung", "vorstand", "termine")),
    ("foerderverein", "Förderverein", ("projekte", "spenden", "vorstand", "termine")),
)
AUTHORITIES_DE = (
    ("stadtbibliothek", "Stadtbibliothek", ("medien", "ausleihe", "veranstaltungen", "standorte")),
    ("vhs", "Volkshochschule", ("kurse", "anmeldung", "dozenten", "standorte")),
    ("buergeramt", "Bürgerservice", ("dienstleistungen", "termine", "formulare", "standorte")),
    ("schule", "Grundschule", ("schulleben", "termine", "foerderverein", "kollegium")),
)

CONTENT_WORDS_DE = (
    "Angebot", "Qualität", "Beratung", "Service", "Termin", "Erfahrung", "Kunden", "Team",
    "Tradition", "Handwerk", "Familie", "regional", "frisch", "persönlich", "modern",
    "zuverlässig", "Sommer", "Winter", "Aktion", "Neuigkeiten", "Öffnungszeiten", "Preise",
    "Veranstaltung", "Mitglieder", "Projekt", "Jahr", "Woche", "Leistung", "Auswahl", "Hilfe",
)
SENTENCES_DE = (
    "Wir freuen uns auf Ihren Besuch.",
    "Seit über {n} Jahren sind wir für unsere Kunden da.",
    "Vereinbaren Sie gerne einen Termin mit uns.",
    "Unser Team berät Sie persönlich und kompetent.",
    "Qualität und Zuverlässigkeit stehen bei uns an erster Stelle.",
    "Hier finden Sie aktuelle Informationen und Angebote.",
    "Bitte beachten Sie unsere geänderten Öffnungszeiten an Feiertagen.",
    "Wir bilden aus und suchen Verstärkung für unser Team.",
    "Alle Preise verstehen sich inklusive Mehrwertsteuer.",
    "Gerne erstellen wir Ihnen ein unverbindliches Angebot.",
    "Die nächste Mitgliederversammlung findet im Frühjahr statt.",
    "Neue Kurse beginnen jeweils zum Monatsanfang.",
)
NEWS_WORDS_DE = (
    "Stadtrat", "Baustelle", "Wochenmarkt", "Innenstadt", "Radweg", "Konzert", "Ausstellung",
    "Polizei", "Feuerwehr", "Schule", "Kita", "Bürgermeister", "Handel", "Kultur", "Verkehr",
    "Haushalt", "Theater", "Universität", "Klinikum", "Hafen", "Sportplatz", "Festival",
)
NEWS_SECTIONS_DE = ("lokales", "region", "sport", "kultur", "wirtschaft", "politik", "freizeit", "blaulicht")

PORTAL_CATEGORIES_DE = (
    "aerzte", "restaurants", "handwerk", "einzelhandel", "dienstleistungen", "vereine",
    "bildung", "gesundheit", "auto", "immobilien", "rechtsanwaelte", "steuerberater",
    "friseure", "cafes", "hotels", "sport", "kultur", "behoerden", "apotheken", "tieraerzte",
    "optiker", "fahrschulen", "buchhandlungen", "blumen", "reisen", "musik", "maler",
    "elektriker", "tischler", "fitness",
)

GENERIC_DE = (
    ("wiki", "Wissen", "wiki"), ("shop", "Marktplatz", "produkt"), ("forum", "Forum", "thema"),
    ("portal", "Nachrichtenportal", "artikel"), ("video", "Videos", "watch"),
    ("jobs", "Stellenmarkt", "stelle"), ("rezepte", "Rezepte", "rezept"),
    ("vergleich", "Vergleichsportal", "test"), ("branchenbuch", "Branchenbuch", "firma"),
)
GENERIC_HOSTS = (
    "www.wissenswiki.de", "www.kaufhaus24.de", "www.netzforum.de", "www.nachrichten-welt.de",
    "www.videoportal.com", "www.jobboerse-deutschland.de", "www.kochrezepte-online.de",
    "www.testvergleich.de", "www.gelbe-branchen.de", "www.socialnet.com", "www.fotocommunity.net",
    "www.reiseportal.com", "www.wetterdienst-online.de", "www.stadtplan-service.de",
    "www.bewertungsportal.de", "www.immobilienmarkt.de", "www.autoboerse.de", "www.webkatalog.info",
)

# Oldenburg: districts (Stadtteile) used in host names and news text.
OLDENBURG_DISTRICTS = (
    "eversten", "buergerfelde", "donnerschwee", "kreyenbrueck", "osternburg", "bloherfelde",
    "etzhorn", "ofenerdiek", "nadorst", "ehnern", "haarentor", "buemmerstede", "tweelbaeke",
    "drielake", "ohmstede", "wechloy", "krusenbusch", "neuenwege", "dietrichsfeld",
    "alexandersfeld", "innenstadt", "dobben", "ziegelhof", "hundsmuehlen",
)

# Real Oldenburg street names (public geography).
OLDENBURG_STREETS = (
    "Schloßplatz", "Achternstraße", "Lange Straße", "Heiligengeiststraße", "Gottorpstraße",
    "Donnerschweer Straße", "Alexanderstraße", "Nadorster Straße", "Cloppenburger Straße",
    "Bremer Straße", "Ammerländer Heerstraße", "Hauptstraße", "Huntestraße", "Staulinie",
    "Theaterwall", "Heiligengeistwall", "Markt", "Gaststraße", "Ofener Straße",
    "Edewechter Landstraße", "Hundsmühler Straße", "Bloherfelder Straße", "Friedrich-August-Platz",
    "Am Stadtmuseum", "An den Voßbergen", "Peterstraße", "Kaiserstraße", "Bahnhofstraße",
    "Osterstraße", "Rosenstraße", "Ritterstraße", "Haarenstraße", "Schüttingstraße",
    "Stau", "Damm", "Moslestraße", "Auguststraße", "Gartenstraße", "Roonstraße",
    "Ziegelhofstraße", "Ehnernstraße", "Hauptstraße", "Sandkruger Straße", "Stedinger Straße",
    "Schützenweg", "Melkbrink", "Eichenstraße", "Uhlhornsweg", "Ammergaustraße", "Wilhelmstraße",
)

# Roots and suffixes for invented street names (not in any region pack).
STREET_ROOTS = (
    "Quellkamp", "Rüstringer", "Moorkaten", "Heidbrink", "Tannenkamp", "Eschholt", "Brookweiden",
    "Kiebitzhorst", "Wallhecken", "Hünenbrink", "Lehmkuhlen", "Stockhorn", "Fehnrand",
    "Deichgrafen", "Sielhafen", "Marschweiden", "Geestrand", "Krähenwinkel", "Torfstich",
    "Birkenhain", "Wiesengrund", "Mühlenkamp", "Lindenhof", "Schwalbennest", "Ottersiel",
    "Hasenkamp", "Rotdorn", "Haferkamp", "Bultenweg", "Grummetkamp", "Ulmenhof", "Fischreiher",
)
STREET_SUFFIXES = ("straße", "weg", "damm", "ring", "allee", "kamp", "stieg", "gang", "platz")
STREET_PATTERNS = ("{root}{suffix}", "{root}{suffix}", "Am {root}", "An der {root}{suffix}",
                   "{first}-{last}-Straße", "Zum {root}")

# --- Other German places (outside any Oldenburg region) ----------------------
# (city shown on pages, postcodes, host token, is_confusable_with_oldenburg)
OTHER_PLACES_DE = (
    ("Bremen", ("28195", "28199", "28203", "28209", "28217"), "bremen", False),
    ("Hamburg", ("20095", "20144", "22765", "22303"), "hamburg", False),
    ("Hannover", ("30159", "30161", "30169"), "hannover", False),
    ("Berlin", ("10115", "10178", "10437", "12043"), "berlin", False),
    ("München", ("80331", "80469", "81667"), "muenchen", False),
    ("Köln", ("50667", "50672", "50823"), "koeln", False),
    ("Osnabrück", ("49074", "49076"), "osnabrueck", False),
    ("Delmenhorst", ("27749", "27751", "27753"), "delmenhorst", False),
    ("Wilhelmshaven", ("26382", "26384"), "wilhelmshaven", False),
    ("Emden", ("26721", "26725"), "emden", False),
    ("Leer", ("26789",), "leer", False),
    ("Cloppenburg", ("49661",), "cloppenburg", False),
    ("Westerstede", ("26655",), "westerstede", False),
    # Confusables: Oldenburg in Holstein, the Landkreis Oldenburg, neighbours with 261xx postcodes.
    ("Oldenburg in Holstein", ("23758",), "oldenburg-holstein", True),
    ("Oldenburg i. H.", ("23758",), "oldenburg-ih", True),
    ("Wardenburg", ("26203",), "wardenburg", True),
    ("Hatten", ("26209",), "hatten", True),
    ("Hude (Oldb)", ("27798",), "hude", True),
    ("Ganderkesee", ("27777",), "ganderkesee", True),
    ("Wildeshausen", ("27793",), "wildeshausen", True),
    ("Großenkneten", ("26197",), "grossenkneten", True),
    ("Dötlingen", ("27801",), "doetlingen", True),
    ("Bad Zwischenahn", ("26160",), "bad-zwischenahn", True),
    ("Rastede", ("26180",), "rastede", True),
    ("Edewecht", ("26188",), "edewecht", True),
)
CONFUSABLE_STREETS_DE = ("Oldenburger Straße", "Oldenburger Landstraße", "Oldenburger Allee")

# --- English / US -------------------------------------------------------------

TRADES_EN = (
    ("dental", "Dental Care", ("services", "implants", "team", "insurance")),
    ("plumbing", "Plumbing", ("services", "emergency", "reviews", "coupons")),
    ("bakery", "Bakery", ("breads", "cakes", "catering", "menu")),
    ("law", "Law Office", ("practice-areas", "attorneys", "results", "blog")),
    ("cafe", "Cafe", ("menu", "events", "gallery", "catering")),
    ("autorepair", "Auto Repair", ("services", "specials", "reviews", "team")),
    ("realty", "Realty", ("listings", "buyers", "sellers", "agents")),
    ("vet", "Animal Hospital", ("services", "emergency", "team", "resources")),
    ("yoga", "Yoga Studio", ("classes", "schedule", "pricing", "teachers")),
    ("hvac", "Heating & Cooling", ("services", "maintenance", "financing", "reviews")),
)
CLUBS_EN = (("club", "Rotary Club", ("meetings", "projects", "members", "events")),
            ("league", "Youth Soccer League", ("teams", "schedule", "register", "fields")))
AUTHORITIES_EN = (("library", "Public Library", ("catalog", "events", "locations", "services")),)
US_STREET_NAMES = ("Main", "Oak", "Maple", "Elm", "Washington", "Lincoln", "Park", "Lake", "Hill",
                   "Cedar", "Pine", "Jefferson", "Madison", "Franklin", "Highland", "Sunset")
US_STREET_ROOTS = ("Quarry Ridge", "Foxglove", "Heron Bay", "Copperleaf", "Willow Bend",
                   "Stonegate", "Prairie Wind", "Bluebonnet", "Timberline", "Redstone")
US_STREET_TYPES = ("St", "Street", "Ave", "Avenue", "Blvd", "Rd", "Dr", "Ln", "Way", "Pkwy")
OTHER_PLACES_US = (
    ("Springfield", "IL", ("62701", "62704"), "springfield"),
    ("Bozeman", "MT", ("59715",), "bozeman"),
    ("Burlington", "VT", ("05401",), "burlington"),
    ("Portland", "ME", ("04101", "04103"), "portlandmaine"),
    ("Ithaca", "NY", ("14850",), "ithaca"),
    ("Flagstaff", "AZ", ("86001",), "flagstaff"),
    ("Duluth", "MN", ("55802",), "duluth"),
    ("Savannah", "GA", ("31401",), "savannah"),
    ("Asheville", "NC", ("28801",), "asheville"),
    ("Boulder", "CO", ("80302",), "boulder"),
)
SENTENCES_EN = (
    "We look forward to serving you.",
    "Family owned and operated for over {n} years.",
    "Call today to schedule an appointment.",
    "Our friendly team is here to help.",
    "Check out our latest specials and news.",
    "Serving the community with pride.",
)
CONTENT_WORDS_EN = ("quality", "service", "local", "team", "community", "family", "news",
                    "events", "hours", "specials", "reviews", "customers", "experience")
NEWS_SECTIONS_EN = ("local", "news", "sports", "business", "arts", "opinion", "weather", "community")
PORTAL_CATEGORIES_EN = ("dentists", "restaurants", "plumbers", "lawyers", "auto", "realtors",
                        "shopping", "health", "education", "churches", "clubs", "services",
                        "hotels", "fitness", "pets", "home-garden")

# --- International ------------------------------------------------------------
# (tld, language, country code, city, postcode, street, contact word, words)
INTL = (
    ("nl", "nl", "NL", "Groningen", "9711 AB", "Vismarkt", "contact",
     ("Welkom", "bij", "onze", "winkel", "openingstijden", "nieuws", "over", "ons")),
    ("nl", "nl", "NL", "Amsterdam", "1012 JS", "Damrak", "contact",
     ("Welkom", "aanbiedingen", "bezoek", "ons", "team", "nieuws", "prijzen")),
    ("fr", "fr", "FR", "Lyon", "69002", "Rue de la République", "contact",
     ("Bienvenue", "notre", "boutique", "horaires", "actualités", "équipe", "prix")),
    ("dk", "da", "DK", "Aarhus", "8000", "Søndergade", "kontakt",
     ("Velkommen", "til", "vores", "butik", "åbningstider", "nyheder", "priser")),
    ("co.uk", "en", "GB", "Leeds", "LS1 4AP", "Briggate", "contact",
     ("Welcome", "to", "our", "shop", "opening", "hours", "news", "prices")),
    ("pl", "pl", "PL", "Gdańsk", "80-831", "Długa", "kontakt",
     ("Witamy", "w", "naszym", "sklepie", "godziny", "otwarcia", "aktualności")),
    ("it", "it", "IT", "Bologna", "40121", "Via Rizzoli", "contatti",
     ("Benvenuti", "nel", "nostro", "negozio", "orari", "notizie", "prezzi")),
)
