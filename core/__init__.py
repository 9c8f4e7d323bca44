"""Site-wide pieces that belong to no game app: home page, health, errors, demo data."""
