cd ~/first-campaign
~/symerr/bin/symerr report report/report.json --output report-again || echo "symerr exit status: $?"
