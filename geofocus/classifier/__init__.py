"""Classifier-guided crawling with visual evidence (Tsikrika et al.): strategy ``classifier``.

* :mod:`.text`: score_T, the link SVM on the a+s text of a link;
* :mod:`.image`: score_V, the map classifier on colour and edge histograms;
* :mod:`.policy`: fusion, selection (t1, t2) and skip-k exploration (t3);
* :mod:`.config`: settings and model files; :mod:`.training`: `scrapy train` helpers.

The Scrapy side is :mod:`geofocus.spidermiddlewares.classifier`.
"""
