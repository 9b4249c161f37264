cp -r examples/source_campaign ~/first-source-campaign
cd ~/first-source-campaign
~/symerr/bin/symerr run campaign.json --output report || echo "symerr exit status: $?"
