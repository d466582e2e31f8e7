"""The build: what the frozen plan becomes on site (cabling plan, per-switch
configuration, collective-bandwidth estimate, failure domains, racks and power, the
acceptance test plan). Pure Python like the rest of the domain core; each module reads
the plan and the catalogue, never Django."""
