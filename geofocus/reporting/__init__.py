"""The crawl report (``scrapy report``): charts, tables, GeoJSON and one HTML page."""

from geofocus.reporting.build import ReportError, ReportResult, build_report

__all__ = ["ReportError", "ReportResult", "build_report"]
