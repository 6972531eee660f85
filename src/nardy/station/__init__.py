"""A live table station: the referee fed by a dice cup, a camera and the dashboard's buttons.

The command line builds stations (``nardy serve``, ``nardy demo``) and hands them to the
dashboard, which knows them only as tables (``nardy.webui.hub.Table``).
"""
